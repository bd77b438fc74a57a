import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { count, eq } from "drizzle-orm";
import type { DatabaseHandle } from "@/db/client";
import { findBackfill } from "@/db/queries/backfills";
import { findSyncState } from "@/db/queries/sync-state";
import { orders } from "@/db/schema";
import { startEmulator, type RunningEmulator } from "@/emulator/src/index";
import { saveInstalledStores } from "@/lib/installs/tokens";
import { enqueueBackfills } from "@/lib/jobs/backfill";
import { startBoss } from "@/lib/jobs/boss";
import { JOB } from "@/lib/jobs/queues";
import { workReadyJobs, type RequestDrivenOptions, type RequestDrivenReport } from "@/lib/jobs/request-driven";
import { setLogSink } from "@/lib/log";
import { createTestDatabase, databaseKind } from "../helpers/database";
import { orderPageCursors, startRecordingProxy, type RecordingProxy } from "../helpers/recording-proxy";

/**
 * A host with no job worker and a cron that runs once a day (Vercel Hobby, JOBS_WORKER=requests): the install's
 * request works the import after its answer, each invocation within a deadline, and hands the rest to a fresh one
 * (the cron route asked to carry on, which answers at once and works after its answer). No worker runs here but
 * the ones those invocations start for their deadline.
 */
const STORE = 101;

describe(`jobs worked by requests (${databaseKind()})`, () => {
  let handle: DatabaseHandle;
  let emulator: RunningEmulator;
  let proxy: RecordingProxy;
  let restoreLog: () => void;

  beforeAll(async () => {
    restoreLog = setLogSink(() => {});
    handle = await createTestDatabase();
    emulator = await startEmulator({ port: 0, appUrl: "http://127.0.0.1:9", dataFile: null, autoTick: false, quiet: true });
    // 40 fixture orders and 360 more: eight pages of 50.
    for (let i = 0; i < 360; i++) emulator.control.placeOrder(STORE);
    proxy = await startRecordingProxy(emulator.url);
  });
  afterAll(async () => {
    await proxy?.close();
    await emulator?.close();
    await handle?.close();
    restoreLog?.();
  });

  it("the shipped vercel.json calls the cron route every minute (Vercel Pro, the production path)", () => {
    const config = JSON.parse(readFileSync("vercel.json", "utf8")) as { crons?: { path: string; schedule: string }[] };
    // The minute's polls and the webhook follow-ups are worked from it; Hobby refuses it (a free trial sets "17 3 * * *").
    expect(config.crons).toEqual([{ path: "/api/cron/jobs", schedule: "* * * * *" }]);
  });

  it("a new install's import completes from its own request's after-work, hop by hop, with no worker running", async () => {
    proxy.calls.length = 0;
    // A platform slow enough that one invocation's deadline ends mid-import (eight pages take 8 s at least).
    proxy.delayMs = 1_000;
    const sender = await startBoss(handle);
    try {
      const minted = emulator.control.mintInstall(STORE);
      // The callback's transaction: the install and its import job.
      await handle.db.transaction(async (tx) => {
        const saved = await saveInstalledStores(tx, {
          scopes: ["orders:read"],
          stores: [{ storeId: STORE, storeName: "Amina Couture", installId: minted.installId, accessToken: minted.accessToken }],
        });
        await enqueueBackfills(sender, tx, saved.map((row) => row.storeId));
      });
    } finally {
      await sender.stop({ graceful: false, close: true });
    }
    expect((await findBackfill(handle.db, STORE))?.status).toBe("running");

    // Each invocation: work until its deadline, then ask for a fresh invocation, which the host runs after its
    // answer, as the cron route does with CONTINUE_HEADER.
    const hops: Promise<RequestDrivenReport>[] = [];
    const options: RequestDrivenOptions = {
      deadlineMs: 6_000,
      // A loaded machine may need long to reach the page boundary where a chunk hands back.
      handBackMs: 20_000,
      platform: { baseUrl: proxy.url },
      continueElsewhere: async () => {
        hops.push(workReadyJobs(handle, options));
      },
    };
    hops.push(workReadyJobs(handle, options));
    for (let awaited = 0; awaited < hops.length; awaited++) await hops[awaited];
    const reports = await Promise.all(hops);

    const row = await findBackfill(handle.db, STORE);
    const platformCount = emulator.ctx.state.orders.filter((order) => order.store_id === STORE).length;
    expect(row).toMatchObject({ status: "done", pages: 8, imported: platformCount });
    const [stored] = await handle.db.select({ n: count() }).from(orders).where(eq(orders.storeId, STORE));
    expect(stored?.n).toBe(platformCount);
    expect((await findSyncState(handle.db, STORE))?.sinceCursor).toBeInstanceOf(Date);
    // It took more than one invocation, each one carried on from the saved cursor: every page read once or, for a
    // page in flight at a hand-back, twice, and the first page once.
    expect(reports.length).toBeGreaterThan(1);
    expect(reports.slice(0, -1).every((report) => report.continued)).toBe(true);
    expect(reports.at(-1)).toMatchObject({ continued: false, ready: 0 });
    expect(reports.reduce((sum, report) => sum + (report.done[JOB.backfill]?.ok ?? 0), 0)).toBeGreaterThan(1);
    expect(orderPageCursors(proxy.calls).filter((cursor) => cursor === "")).toHaveLength(1);
    expect(new Set(orderPageCursors(proxy.calls)).size).toBe(8);
    proxy.delayMs = 0;
  }, 180_000);

  it("an invocation with nothing ready ends at once and hands nothing on", async () => {
    let asked = 0;
    const report = await workReadyJobs(handle, {
      deadlineMs: 30_000,
      handBackMs: 1_000,
      platform: { baseUrl: proxy.url },
      continueElsewhere: async () => {
        asked++;
      },
    });
    expect(report).toMatchObject({ ready: 0, continued: false });
    expect(report.ranMs).toBeLessThan(15_000);
    expect(asked).toBe(0);
  }, 60_000);
});
