import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { installs, orderSyncState } from "@/db/schema";

export type SyncProgress = { storeId: number; state: string; installedAt: Date; lastSyncedAt: Date | null };

/** Every install with the end of its last completed order poll (null: never polled), for the sync-lag metric. */
export async function listSyncProgress(db: DbOrTx): Promise<SyncProgress[]> {
  return db
    .select({
      storeId: installs.storeId,
      state: installs.state,
      installedAt: installs.installedAt,
      lastSyncedAt: orderSyncState.lastSyncedAt,
    })
    .from(installs)
    .leftJoin(orderSyncState, eq(orderSyncState.storeId, installs.storeId));
}
