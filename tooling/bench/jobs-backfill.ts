/**
 * Order import benchmark: one store with 10,000 orders on the emulator, imported by the job engine (two workers,
 * each its own pg-boss instance, on a scratch database on the machine's PostgreSQL). Reports the calls a platform
 * minute the import sustains, as a share of the install's 120, and the 429s it met. The emulator's clock runs at
 * TIME_SCALE× real time and drives the client's now() and sleep(), as in the pacing benchmark; the database's
 * writes run in real time, so a faster clock would charge them to the import.
 */
import { openDatabase } from "@/db/client";
import { findBackfill } from "@/db/queries/backfills";
import { startEmulator } from "@/emulator/src/index";
import { saveInstalledStores } from "@/lib/installs/tokens";
import { enqueueBackfills } from "@/lib/jobs/backfill";
import { startWorker, type JobWorker } from "@/lib/jobs/runtime";
import type { Logger } from "@/lib/log";
import { benchDatabase } from "./support";
import type { BenchResult } from "./types";
import { migrateDatabase } from "@/lib/database/migrate";

const TIME_SCALE = 1;
const PER_MINUTE = 120;
const ORDERS = 10_000;
const WORKERS = 2;
const STORE_ID = 101;

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {}, with: () => quiet };

export async function benchBackfill(): Promise<BenchResult> {
  const scratch = await benchDatabase("bench_backfill");
  const database = await openDatabase({ url: scratch.url });
  const emulator = await startEmulator({ port: 0, appUrl: "http://localhost:3999", dataFile: null, autoTick: false, timeScale: TIME_SCALE, quiet: true });
  const workers: JobWorker[] = [];
  try {
    await migrateDatabase(database);
    const clock = emulator.ctx.clock;
    const existing = emulator.ctx.state.orders.filter((order) => order.store_id === STORE_ID).length;
    for (let i = existing; i < ORDERS; i++) emulator.control.placeOrder(STORE_ID);
    // The placed orders queued webhook deliveries nobody will send; they only cost memory here.
    emulator.ctx.state.deliveries.length = 0;
    const minted = emulator.control.mintInstall(STORE_ID);

    const perMinute = new Map<number, number>();
    let rateLimited = 0;
    const countingFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (new URL(String(input)).pathname === "/v1/orders") {
        const minute = Math.floor(clock.nowMs() / 60_000);
        perMinute.set(minute, (perMinute.get(minute) ?? 0) + 1);
      }
      if (response.status === 429) rateLimited += 1;
      return response;
    };
    const platform = {
      baseUrl: emulator.url,
      fetch: countingFetch,
      now: () => clock.nowMs(),
      sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms / TIME_SCALE)),
      log: quiet,
    };
    for (let i = 0; i < WORKERS; i++) workers.push(await startWorker(database, { platform, logger: quiet, pollingIntervalSeconds: 1 }));

    // Start just after a minute boundary so the first minute is a whole one, like every later minute.
    clock.advance((60_000 - (clock.nowMs() % 60_000) + 1_000) / 1000);
    const startedReal = Date.now();
    const startedEmulated = clock.nowMs();
    const [sender] = workers;
    await database.db.transaction(async (tx) => {
      await saveInstalledStores(tx, {
        scopes: ["orders:read"],
        stores: [{ storeId: STORE_ID, storeName: "Amina Couture", installId: minted.installId, accessToken: minted.accessToken }],
      });
      await enqueueBackfills(sender!.boss, tx, [STORE_ID]);
    });
    for (;;) {
      const row = await findBackfill(database.db, STORE_ID);
      if (row?.status === "done") break;
      if (row?.status === "failed") throw new Error(`the import failed: ${row.lastError ?? "unknown"}`);
      if (Date.now() - startedReal > 15 * 60_000) throw new Error("the import did not finish in 15 minutes");
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const realSeconds = (Date.now() - startedReal) / 1000;
    const emulatedMinutes = (clock.nowMs() - startedEmulated) / 60_000;
    const imported = (await findBackfill(database.db, STORE_ID))?.imported ?? 0;

    const minutes = [...perMinute.keys()].sort((a, b) => a - b);
    const counts = minutes.map((minute) => perMinute.get(minute) ?? 0);
    // Budgets are clock minutes: in every minute but the last the import had more pages to read than budget, so
    // those are the ones the share is measured on (the last ends when the import does).
    const busy = counts.slice(0, -1);
    const share = busy.length ? (100 * busy.reduce((sum, value) => sum + value, 0)) / (PER_MINUTE * busy.length) : 0;
    return {
      title: "order import (jobs)",
      lines: [
        `One store's import of ${imported} orders (${Math.ceil(imported / 50)} pages of 50) by ${WORKERS} job workers on the machine's PostgreSQL, through the API client and the emulator.`,
        `The emulator's clock ran at ${TIME_SCALE}× real time and drove the client's now() and sleep(): ${emulatedMinutes.toFixed(1)} platform minutes in ${realSeconds.toFixed(1)} s.`,
        `Calls a minute sustained in the minutes where pages remained: ${share.toFixed(1)}% of the install's ${PER_MINUTE} (target ≥ 95%).`,
        `429 responses met: ${rateLimited} (target 0).`,
        `Calls per platform minute: ${counts.join(", ")}.`,
      ],
      figures: {
        backfillBudgetSharePct: Number(share.toFixed(1)),
        backfill429s: rateLimited,
        backfillOrders: imported,
        backfillRealSeconds: Number(realSeconds.toFixed(1)),
      },
    };
  } finally {
    for (const worker of workers) await worker.stop(1_000).catch(() => undefined);
    await emulator.close();
    await database.close();
    await scratch.drop();
  }
}
