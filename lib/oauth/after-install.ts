import type { Db } from "@/db/client";
import { log } from "@/lib/log";
import { syncStoreOrders } from "@/lib/sync/orders-sync";

/**
 * Order backfill for stores that were just installed, run after the callback has answered (next/server `after`).
 * Stores are done one by one: each sync spends that install's request budget, and a failure of one must not stop
 * the others (the scheduled sync picks up whatever is missed).
 */
export async function backfillInstalledStores(db: Db, storeIds: readonly number[]): Promise<void> {
  for (const storeId of storeIds) {
    try {
      // Full: on a re-install, orders that changed while the app was away may be older than the stored mark.
      const result = await syncStoreOrders(db, storeId, { full: true });
      log.info("order backfill after install", { storeId, outcome: result.outcome, fetched: result.fetched });
    } catch (error) {
      log.warn("order backfill after install failed", { storeId, error });
    }
  }
}
