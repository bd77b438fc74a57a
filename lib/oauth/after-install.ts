import type { Db } from "@/db/client";
import { log } from "@/lib/log";

/**
 * Order backfill for stores that were just installed, run after the callback has answered (next/server `after`).
 * Stores are done one by one: each sync spends that install's request budget, and a failure of one must not stop
 * the others (the scheduled sync picks up whatever is missed).
 */
export async function backfillInstalledStores(db: Db, storeIds: readonly number[]): Promise<void> {
  for (const storeId of storeIds) {
    try {
      // WIRE-UP (single call site): `await syncStoreOrders(db, storeId)` from "@/lib/sync/orders-sync" once it exists.
      void db;
    } catch (error) {
      log.warn("order backfill after install failed", { storeId, error });
    }
  }
}
