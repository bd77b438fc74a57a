import { eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { orderBackfills, orderSyncState } from "@/db/schema";

/** The poll's high-water mark and last outcome per store. One poller per store is the job engine's (lib/jobs). */

export type SyncState = typeof orderSyncState.$inferSelect;

export async function findSyncState(db: DbOrTx, storeId: number): Promise<SyncState | null> {
  const [row] = await db.select().from(orderSyncState).where(eq(orderSyncState.storeId, storeId)).limit(1);
  return row ?? null;
}

/**
 * Records a poll's outcome. `sinceCursor` is given only by a poll that read every page: a partial poll must not
 * move the mark past orders it never reached. The mark never moves backwards either.
 */
export async function recordPoll(
  db: DbOrTx,
  input: { storeId: number; now: Date; sinceCursor?: Date | null; syncedAt?: Date; lastError: string | null },
): Promise<void> {
  const mark = input.sinceCursor?.toISOString() ?? null;
  await db
    .insert(orderSyncState)
    .values({
      storeId: input.storeId,
      sinceCursor: input.sinceCursor ?? null,
      lastSyncedAt: input.syncedAt ?? null,
      lastError: input.lastError,
      updatedAt: input.now,
    })
    .onConflictDoUpdate({
      target: orderSyncState.storeId,
      set: {
        lastError: input.lastError,
        updatedAt: input.now,
        ...(input.sinceCursor !== undefined ? { sinceCursor: sql`greatest(${orderSyncState.sinceCursor}, ${mark}::timestamptz)` } : {}),
        ...(input.syncedAt ? { lastSyncedAt: input.syncedAt } : {}),
      },
    });
}

export async function deleteSyncStateOfStores(db: DbOrTx, storeIds: number[]): Promise<void> {
  if (storeIds.length === 0) return;
  await db.delete(orderSyncState).where(inArray(orderSyncState.storeId, storeIds));
  await db.delete(orderBackfills).where(inArray(orderBackfills.storeId, storeIds));
}
