import { and, asc, eq, inArray, isNull, lt, or, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { deleteOrdersOfStores } from "@/db/queries/orders";
import { deleteEndedGrantsBefore, deleteExpiredSessions } from "@/db/queries/sessions";
import { deleteSyncStateOfStores } from "@/db/queries/sync-state";
import { deleteEventsOfStores, deleteStoreEventsBefore, storesWithEvents } from "@/db/queries/webhook-events";
import { installs } from "@/db/schema";
import { closedInstallStates } from "@/lib/installs/state";
import { ABSOLUTE_LIFETIME_MS, IDLE_TIMEOUT_MS } from "@/lib/session-policy";

/**
 * Data retention after an uninstall. The app.uninstalled event destroys the token at once; the store's orders are
 * kept for RETENTION_DAYS so a merchant who installs again within that time finds everything as it was. After
 * that, `npm run data:purge` deletes the store's orders, items, status history, sync state, event ids and its
 * install row (and with it what sessions still held it). An install whose token the platform revoked (a 401) is
 * treated the same from the moment it was recorded. Event ids of every store are also forgotten after the same
 * period: redeliveries stop within hours. Sessions past their limits are deleted on the same run.
 */

export const RETENTION_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

export type PurgeResult = {
  /** Stores whose data was deleted. */
  storeIds: number[];
  orders: number;
  /** Event ids deleted, those of the purged stores and those past retention. */
  events: number;
  cutoff: Date;
  /** Expired sessions deleted. */
  sessions: number;
};

/**
 * Installs the platform cut off (lib/installs/state.ts closedInstallStates) before `cutoff`: since their uninstall
 * when there was one (by the platform's time), else since their state was recorded (a revoked token, by ours).
 */
function closedBefore(cutoff: Date): SQL {
  return and(
    inArray(installs.state, closedInstallStates()),
    // coalesce(uninstalled_at, state_changed_at) < cutoff, spelled with the columns themselves so the driver maps the
    // date as each column's type (postgres.js refuses a Date bound against a raw SQL expression).
    or(lt(installs.uninstalledAt, cutoff), and(isNull(installs.uninstalledAt), lt(installs.stateChangedAt, cutoff))),
  ) as SQL;
}

/** Event ids forgotten per statement: each a short transaction through one store's key. */
export const EVENT_PURGE_BATCH = 5_000;

/**
 * Forgets every event id older than `cutoff`, store by store through the (store_id, received_at) key, at most
 * `batch` a statement. One statement for all of them reads the whole table and deletes a day's ids in one
 * transaction, so webhooks arriving meanwhile wait behind its reads and writes. Through the key each statement reads only the pages of the ids it deletes.
 */
async function forgetEventsBefore(db: Db, cutoff: Date, batch: number): Promise<number> {
  let forgotten = 0;
  for (const storeId of await storesWithEvents(db)) {
    for (;;) {
      const deleted = await deleteStoreEventsBefore(db, storeId, cutoff, batch);
      forgotten += deleted;
      if (deleted < batch) break;
    }
  }
  return forgotten;
}

export async function purgeUninstalledStores(
  db: Db,
  options: { now?: Date; retentionDays?: number; dryRun?: boolean; eventBatch?: number } = {},
): Promise<PurgeResult> {
  const now = options.now ?? new Date();
  const cutoff = new Date(now.getTime() - (options.retentionDays ?? RETENTION_DAYS) * DAY_MS);
  const due = await db
    .select({ storeId: installs.storeId })
    .from(installs)
    .where(closedBefore(cutoff))
    .orderBy(asc(installs.storeId));

  const result: PurgeResult = { storeIds: [], orders: 0, events: 0, cutoff, sessions: 0 };
  if (options.dryRun) return { ...result, storeIds: due.map((row) => row.storeId) };

  for (const { storeId } of due) {
    await db.transaction(async (tx) => {
      // Deleting the install row first, under the same conditions, means a store installed again since the
      // select above keeps all its data: the delete finds nothing and the rest is skipped.
      const removed = await tx
        .delete(installs)
        .where(and(eq(installs.storeId, storeId), closedBefore(cutoff)))
        .returning({ storeId: installs.storeId });
      if (removed.length === 0) return;
      result.orders += await deleteOrdersOfStores(tx, [storeId]);
      result.events += await deleteEventsOfStores(tx, [storeId]);
      await deleteSyncStateOfStores(tx, [storeId]);
      result.storeIds.push(storeId);
    });
  }
  result.events += await forgetEventsBefore(db, cutoff, options.eventBatch ?? EVENT_PURGE_BATCH);
  result.sessions = await deleteExpiredSessions(db, {
    now,
    idleTimeoutMs: IDLE_TIMEOUT_MS,
    absoluteLifetimeMs: ABSOLUTE_LIFETIME_MS,
  });
  // No browser still carries the cookie of a session older than its lifetime: the reasons it ended are unread.
  await deleteEndedGrantsBefore(db, new Date(now.getTime() - ABSOLUTE_LIFETIME_MS));
  return result;
}
