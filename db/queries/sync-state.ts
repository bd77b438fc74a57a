import { and, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { orderSyncState } from "@/db/schema";

/**
 * The per-store lease that keeps one poller per store across app instances, and the poll's high-water mark.
 * Taking the lease is a single statement (insert or conditional update), so two instances racing for one store
 * cannot both win.
 */

export type SyncState = typeof orderSyncState.$inferSelect;

export async function findSyncState(db: DbOrTx, storeId: number): Promise<SyncState | null> {
  const [row] = await db.select().from(orderSyncState).where(eq(orderSyncState.storeId, storeId)).limit(1);
  return row ?? null;
}

/**
 * Takes (or renews) the store's lease until `now + ttlMs`. Succeeds when nobody holds it, when the holder's lease
 * expired, or when `owner` already holds it. Returns the row (with the cursor to poll from) or null.
 */
export async function acquireSyncLease(
  db: DbOrTx,
  input: { storeId: number; owner: string; now: Date; ttlMs: number },
): Promise<SyncState | null> {
  const until = new Date(input.now.getTime() + input.ttlMs);
  const [row] = await db
    .insert(orderSyncState)
    .values({ storeId: input.storeId, leaseOwner: input.owner, leaseUntil: until, updatedAt: input.now })
    .onConflictDoUpdate({
      target: orderSyncState.storeId,
      set: { leaseOwner: input.owner, leaseUntil: until, updatedAt: input.now },
      setWhere: or(
        isNull(orderSyncState.leaseUntil),
        lt(orderSyncState.leaseUntil, input.now),
        eq(orderSyncState.leaseOwner, input.owner),
      ),
    })
    .returning();
  return row ?? null;
}

/** Extends a lease still held by `owner` (long backfills renew it page by page). False when it was lost. */
export async function renewSyncLease(
  db: DbOrTx,
  input: { storeId: number; owner: string; now: Date; ttlMs: number },
): Promise<boolean> {
  const rows = await db
    .update(orderSyncState)
    .set({ leaseUntil: new Date(input.now.getTime() + input.ttlMs), updatedAt: input.now })
    .where(and(eq(orderSyncState.storeId, input.storeId), eq(orderSyncState.leaseOwner, input.owner)))
    .returning({ storeId: orderSyncState.storeId });
  return rows.length > 0;
}

/**
 * Ends a poll: records its outcome and frees the lease, only if `owner` still holds it (an instance whose lease
 * expired and was taken over must not overwrite the newer holder's cursor).
 */
export async function releaseSyncLease(
  db: DbOrTx,
  input: {
    storeId: number;
    owner: string;
    now: Date;
    /** New high-water mark; undefined keeps the stored one. */
    sinceCursor?: Date | null;
    /** Set on success. */
    syncedAt?: Date;
    /** A short, secret-free description of the failure, or null to clear it. */
    lastError: string | null;
  },
): Promise<boolean> {
  const rows = await db
    .update(orderSyncState)
    .set({
      leaseOwner: null,
      leaseUntil: null,
      lastError: input.lastError,
      updatedAt: input.now,
      ...(input.sinceCursor !== undefined
        ? // Never move the mark backwards, whatever order two polls finish in.
          { sinceCursor: sql`greatest(${orderSyncState.sinceCursor}, ${input.sinceCursor?.toISOString() ?? null}::timestamptz)` }
        : {}),
      ...(input.syncedAt ? { lastSyncedAt: input.syncedAt } : {}),
    })
    .where(and(eq(orderSyncState.storeId, input.storeId), eq(orderSyncState.leaseOwner, input.owner)))
    .returning({ storeId: orderSyncState.storeId });
  return rows.length > 0;
}

export async function deleteSyncStateOfStores(db: DbOrTx, storeIds: number[]): Promise<void> {
  if (storeIds.length === 0) return;
  await db.delete(orderSyncState).where(inArray(orderSyncState.storeId, storeIds));
}
