import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { count, eq } from "drizzle-orm";
import { openDatabase, type DatabaseHandle } from "@/db/client";
import { findBackfill } from "@/db/queries/backfills";
import { findSyncState } from "@/db/queries/sync-state";
import { orders } from "@/db/schema";
import { startEmulator, type RunningEmulator } from "@/emulator/src/index";
import { saveInstalledStores } from "@/lib/installs/tokens";
import { enqueueBackfills } from "@/lib/jobs/backfill";
import { startBoss } from "@/lib/jobs/boss";
import { JOB } from "@/lib/jobs/queues";
import { startWorker, type JobWorker } from "@/lib/jobs/runtime";
import { setLogSink } from "@/lib/log";
import type { PgBoss } from "pg-boss";
import { createTestDatabase, databaseKind } from "../helpers/database";
import { orderPageCursors, startRecordingProxy, type RecordingProxy } from "../helpers/recording-proxy";
import { createScratchDatabase } from "@/db/scratch";
import { migrateDatabase } from "@/lib/database/migrate";

/**
 * The order import as jobs, against the emulator through a proxy that notes which page each call asked for. Four
 * pages of 50: a chunk reads two, so the import is two jobs when nothing goes wrong.
 */
const STORE = 101;

describe(`order backfill jobs (${databaseKind()})`, () => {
  let emulator: RunningEmulator;
  let proxy: RecordingProxy;
  let restoreLog: () => void;

  beforeAll(async () => {
    restoreLog = setLogSink(() => {});
    emulator = await startEmulator({ port: 0, appUrl: "http://127.0.0.1:9", dataFile: null, autoTick: false, quiet: true });
    // 40 fixture orders and 160 more: 200, four pages.
    for (let i = 0; i < 160; i++) emulator.control.placeOrder(STORE);
    proxy = await startRecordingProxy(emulator.url);
  });
  afterAll(async () => {
    await proxy?.close();
    await emulator?.close();
    restoreLog?.();
  });

  const platformCount = () => emulator.ctx.state.orders.filter((order) => order.store_id === STORE).length;
  const newestCreatedAt = () =>
    Math.max(...emulator.ctx.state.orders.filter((order) => order.store_id === STORE).map((order) => Date.parse(order.created_at)));

  async function storedCount(handle: DatabaseHandle): Promise<number> {
    const [row] = await handle.db.select({ n: count() }).from(orders).where(eq(orders.storeId, STORE));
    return row?.n ?? 0;
  }

  /** Installs the store the way the callback does: install row and import job in one transaction. */
  async function install(handle: DatabaseHandle, boss: PgBoss): Promise<void> {
    // Retries a second apart, and a killed worker's job noticed after the shortest heartbeat pg-boss allows.
    await boss.updateQueue(JOB.backfill, { retryDelay: 1, retryBackoff: false, heartbeatSeconds: 10 });
    const minted = emulator.control.mintInstall(STORE);
    await handle.db.transaction(async (tx) => {
      const saved = await saveInstalledStores(tx, {
        scopes: ["orders:read"],
        stores: [{ storeId: STORE, storeName: "Amina Couture", installId: minted.installId, accessToken: minted.accessToken }],
      });
      await enqueueBackfills(boss, tx, saved.map((row) => row.storeId));
    });
  }

  async function waitForImport(handle: DatabaseHandle, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const row = await findBackfill(handle.db, STORE);
      if (row?.status === "done") return;
      if (Date.now() > deadline) throw new Error(`the import did not finish: ${JSON.stringify(row)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  it("a page that fails past the client's retries is retried by the engine from the saved cursor, and only the end moves the mark", async () => {
    const handle = await createTestDatabase();
    let worker: JobWorker | undefined;
    try {
      proxy.calls.length = 0;
      let markWhileFailing: Date | null | undefined;
      let listCalls = 0;
      // After two pages, the next call meets a 500; the client tries once, so the job fails.
      const faultAfterTwoPages: typeof fetch = async (input, init) => {
        if (new URL(String(input)).pathname === "/v1/orders" && ++listCalls === 3) {
          emulator.control.addFaults([{ kind: "status", status: 500, times: 1, pathPrefix: "/v1/orders" }]);
          markWhileFailing = (await findSyncState(handle.db, STORE))?.sinceCursor ?? null;
        }
        return fetch(input, init);
      };
      worker = await startWorker(handle, {
        platform: { baseUrl: proxy.url, fetch: faultAfterTwoPages, retry: { maxAttempts: 1 } },
        backfillChunkPages: 2,
        pollingIntervalSeconds: 1,
        superviseIntervalSeconds: 1,
      });
      await install(handle, worker.boss);
      await waitForImport(handle, 60_000);

      expect(await storedCount(handle)).toBe(platformCount());
      const cursors = orderPageCursors(proxy.calls);
      // Four pages and the failed call: the first page once, the failed page twice, nothing read from the start again.
      expect(cursors.filter((cursor) => cursor === "")).toHaveLength(1);
      expect(cursors).toHaveLength(5);
      expect(cursors[2]).toBe(cursors[3]);
      expect(new Set(cursors).size).toBe(4);
      expect(markWhileFailing).toBeNull();
      expect((await findSyncState(handle.db, STORE))?.sinceCursor?.getTime()).toBe(newestCreatedAt());
      expect(await findBackfill(handle.db, STORE)).toMatchObject({ status: "done", pages: 4, imported: platformCount(), lastError: null });
    } finally {
      await worker?.stop(1_000);
      await handle.close();
    }
  }, 120_000);

  it("a worker killed with SIGKILL mid-import: after a restart the import resumes from the page it reached", async () => {
    const serverUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
    const folder = serverUrl ? null : await mkdtemp(path.join(tmpdir(), "starter-backfill-"));
    const scratch = serverUrl ? await createScratchDatabase(serverUrl, "starter_test") : null;
    const target = scratch ? scratch.url : path.join(folder!, "db");
    const open = () => openDatabase(scratch ? { url: target } : { embedded: target });
    let handle = await open();
    let worker: JobWorker | undefined;
    try {
      await migrateDatabase(handle);
      const sender = await startBoss(handle);
      await install(handle, sender);
      await sender.stop({ graceful: false, close: true });
      // Two processes must never open one embedded folder: the test lets go of it while the child runs.
      if (!scratch) await handle.close();

      proxy.calls.length = 0;
      proxy.delayMs = 300;
      const child = spawn(process.execPath, ["--import", "tsx", "--conditions=react-server", "tests/helpers/jobs-worker-child.ts"], {
        env: { ...process.env, JOBS_CHILD_DB: target, JOBS_CHILD_API: proxy.url },
        stdio: ["ignore", "pipe", "pipe"],
      });
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      const deadline = Date.now() + 60_000;
      // Killed once it asks for its fourth page: it asks for a page while writing the one before, so by then at
      // least two pages are saved, and the third or the fourth is not.
      while (orderPageCursors(proxy.calls).length < 4) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error("the child worker did not reach its fourth page");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      child.kill("SIGKILL");
      await exited;
      const beforeKill = orderPageCursors(proxy.calls);
      proxy.delayMs = 0;

      if (!scratch) handle = await open();
      expect(await storedCount(handle)).toBeLessThan(platformCount());
      const reached = await findBackfill(handle.db, STORE);
      expect(reached?.pages).toBeGreaterThanOrEqual(2);
      expect((await findSyncState(handle.db, STORE))?.sinceCursor ?? null).toBeNull();

      worker = await startWorker(handle, {
        platform: { baseUrl: proxy.url },
        backfillChunkPages: 2,
        pollingIntervalSeconds: 1,
        superviseIntervalSeconds: 1,
      });
      await waitForImport(handle, 90_000);

      expect(await storedCount(handle)).toBe(platformCount());
      const afterRestart = orderPageCursors(proxy.calls).slice(beforeKill.length);
      // It started from the saved cursor, a page the killed worker had reached, never from the first page.
      expect(afterRestart[0]).toBe(reached?.cursor);
      expect(beforeKill.slice(1)).toContain(afterRestart[0]);
      expect(orderPageCursors(proxy.calls).filter((cursor) => cursor === "")).toHaveLength(1);
      expect((await findSyncState(handle.db, STORE))?.sinceCursor?.getTime()).toBe(newestCreatedAt());
    } finally {
      await worker?.stop(1_000);
      await handle.close().catch(() => undefined);
      await scratch?.drop();
      if (folder) await rm(folder, { recursive: true, force: true });
    }
  }, 180_000);
});
