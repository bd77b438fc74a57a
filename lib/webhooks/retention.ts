import { and, asc, eq, lt } from "drizzle-orm";
import type { Db } from "@/db/client";
import { deleteOrdersOfStores } from "@/db/queries/orders";
import { deleteSyncStateOfStores } from "@/db/queries/sync-state";
import { deleteEventsBefore, deleteEventsOfStores } from "@/db/queries/webhook-events";
import { installs } from "@/db/schema";

/**
 * Data retention after an uninstall. The app.uninstalled event destroys the token at once; the store's orders are
 * kept for RETENTION_DAYS so a merchant who installs again within that time finds everything as it was. After
 * that, `npm run data:purge` deletes the store's orders, items, status history, sync state, event ids and its
 * install row. Event ids of every store are also forgotten after the same period: redeliveries stop within hours.
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
};

export async function purgeUninstalledStores(
  db: Db,
  options: { now?: Date; retentionDays?: number; dryRun?: boolean } = {},
): Promise<PurgeResult> {
  const now = options.now ?? new Date();
  const cutoff = new Date(now.getTime() - (options.retentionDays ?? RETENTION_DAYS) * DAY_MS);
  const due = await db
    .select({ storeId: installs.storeId })
    .from(installs)
    .where(and(eq(installs.state, "uninstalled"), lt(installs.uninstalledAt, cutoff)))
    .orderBy(asc(installs.storeId));

  const result: PurgeResult = { storeIds: [], orders: 0, events: 0, cutoff };
  if (options.dryRun) return { ...result, storeIds: due.map((row) => row.storeId) };

  for (const { storeId } of due) {
    await db.transaction(async (tx) => {
      // Deleting the install row first, under the same conditions, means a store installed again since the
      // select above keeps all its data: the delete finds nothing and the rest is skipped.
      const removed = await tx
        .delete(installs)
        .where(and(eq(installs.storeId, storeId), eq(installs.state, "uninstalled"), lt(installs.uninstalledAt, cutoff)))
        .returning({ storeId: installs.storeId });
      if (removed.length === 0) return;
      result.orders += await deleteOrdersOfStores(tx, [storeId]);
      result.events += await deleteEventsOfStores(tx, [storeId]);
      await deleteSyncStateOfStores(tx, [storeId]);
      result.storeIds.push(storeId);
    });
  }
  result.events += await deleteEventsBefore(db, cutoff);
  return result;
}
