import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orderBackfills } from "@/db/schema";
import { startEmulator, type RunningEmulator } from "@/emulator/src/index";
import { saveInstalledStores } from "@/lib/installs/tokens";
import { enqueueBackfills } from "@/lib/jobs/backfill";
import { startBoss } from "@/lib/jobs/boss";
import { startWorker, type JobWorker } from "@/lib/jobs/runtime";
import { setLogSink } from "@/lib/log";
import { createTestDatabase, databaseKind } from "../helpers/database";

/**
 * A backlog of imports, as an install wave leaves: the worker's import loop goes from one batch to the next without
 * waiting for a wake-up. The loops here look for work on their own only every ten minutes, so an import loop that
 * waited after each batch would leave all but the first two imports queued until the test's timeout.
 */
describe(`a backlog of order imports (${databaseKind()})`, () => {
  let emulator: RunningEmulator;
  let restoreLog: () => void;

  beforeAll(async () => {
    restoreLog = setLogSink(() => {});
    emulator = await startEmulator({ port: 0, appUrl: "http://127.0.0.1:9", dataFile: null, autoTick: false, quiet: true });
  });
  afterAll(async () => {
    await emulator?.close();
    restoreLog?.();
  });

  it("eight imports queued at once all finish, two at a time, with no wake-up between batches", async () => {
    const handle = await createTestDatabase();
    let worker: JobWorker | undefined;
    try {
      const stores = emulator.control.mintStores({ count: 8, ordersPerStore: 3 });
      const storeIds = stores.map((store) => store.storeId);
      // Queued before any worker runs: the one NOTIFY of their insert reaches nobody.
      const sender = await startBoss(handle);
      try {
        await handle.db.transaction(async (tx) => {
          const saved = await saveInstalledStores(tx, { scopes: ["orders:read"], stores });
          await enqueueBackfills(sender, tx, saved.map((row) => row.storeId));
        });
      } finally {
        await sender.stop({ graceful: false, close: true });
      }

      let running = 0;
      let mostAtOnce = 0;
      worker = await startWorker(handle, {
        platform: { baseUrl: emulator.url },
        concurrency: 4,
        importConcurrency: 2,
        pollingIntervalSeconds: 600,
        idlePollingSeconds: 600,
        onJobStart: (name) => {
          if (name === "orders-backfill") mostAtOnce = Math.max(mostAtOnce, ++running);
        },
        onJobDone: (name) => {
          if (name === "orders-backfill") running--;
        },
      });

      // An event, not a deadline: every import done (the test's timeout bounds a loop that went to sleep).
      for (;;) {
        const rows = await handle.db.select().from(orderBackfills).where(inArray(orderBackfills.storeId, storeIds));
        const failed = rows.find((row) => row.status === "failed");
        if (failed) throw new Error(`an import failed: ${failed.lastError}`);
        if (rows.length === storeIds.length && rows.every((row) => row.status === "done")) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const rows = await handle.db.select().from(orderBackfills).where(inArray(orderBackfills.storeId, storeIds));
      expect(rows.map((row) => row.imported)).toEqual(storeIds.map(() => 3));
      expect(mostAtOnce).toBe(2);
    } finally {
      await worker?.stop(1_000);
      await handle.close();
    }
  }, 120_000);
});
