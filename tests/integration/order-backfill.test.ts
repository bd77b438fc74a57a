import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { count, eq, sql } from "drizzle-orm";
import type { DatabaseHandle } from "@/db/client";
import { findBackfill } from "@/db/queries/backfills";
import { findSyncState } from "@/db/queries/sync-state";
import { orders } from "@/db/schema";
import { startEmulator, type RunningEmulator } from "@/emulator/src/index";
import { saveInstalledStores } from "@/lib/installs/tokens";
import { enqueueBackfills } from "@/lib/jobs/backfill";
import { startBoss } from "@/lib/jobs/boss";
import { JOB } from "@/lib/jobs/queues";
import { DEFAULT_TIMEOUT_MS } from "@/lib/platform";
import { startWorker, type JobWorker } from "@/lib/jobs/runtime";
import { setLogSink } from "@/lib/log";
import type { PgBoss } from "pg-boss";
import { databaseForAChild, killChildOnce } from "../helpers/child-process-database";
import { createTestDatabase, databaseKind } from "../helpers/database";
import { orderPageCursors, startRecordingProxy, type RecordingProxy } from "../helpers/recording-proxy";
import { migrateDatabase } from "@/lib/database/migrate";

/**
 * The order import as jobs, against the emulator through a proxy that notes which page each call asked for. Four
 * pages of 50: a chunk reads two, so the import is two jobs when nothing goes wrong.
 */
const STORE = 101;
/** Written into the embedded database's folder when the finish's write of the polling mark starts. */
const FINISH_MARKER = "test-finish-reached";
/** The job worker in a process of its own, for the tests that kill it. */
const WORKER_CHILD = "tests/helpers/jobs-worker-child.ts";

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
    await consent(handle, boss);
  }

  /**
   * The merchant's consent as the callback saves it: a new token (revoking the one before, on a re-install) and a
   * new import run, in one transaction.
   */
  async function consent(handle: DatabaseHandle, boss: PgBoss): Promise<void> {
    const minted = emulator.control.mintInstall(STORE);
    await handle.db.transaction(async (tx) => {
      const saved = await saveInstalledStores(tx, {
        scopes: ["orders:read"],
        stores: [{ storeId: STORE, storeName: "Amina Couture", installId: minted.installId, accessToken: minted.accessToken }],
      });
      await enqueueBackfills(boss, tx, saved.map((row) => row.storeId));
    });
  }

  /** A worker as the app runs one, through the recording proxy, in chunks of two pages and with one-second ticks. */
  function workerOn(handle: DatabaseHandle, platform: Omit<NonNullable<Parameters<typeof startWorker>[1]>["platform"], "baseUrl"> = {}): Promise<JobWorker> {
    return startWorker(handle, {
      platform: { baseUrl: proxy.url, ...platform },
      backfillChunkPages: 2,
      pollingIntervalSeconds: 1,
      superviseIntervalSeconds: 1,
    });
  }

  /**
   * A database fault at the moment the import finishes: the first write of the polling mark raises, once. The
   * finish writes the mark right after the last page is stored.
   */
  async function failFirstMarkWrite(handle: DatabaseHandle, how: "raise" | "sleep" | "announce and sleep"): Promise<void> {
    // "announce": a file FINISH_MARKER in the database's own folder first (COPY writes at once, outside the
    // transaction), which a test can see while the embedded database is another process's to open.
    const act =
      how === "raise"
        ? "raise exception 'injected fault at the finish'"
        : `${how === "announce and sleep" ? `execute format('copy (select 1) to %L', current_setting('data_directory') || '/${FINISH_MARKER}'); ` : ""}perform pg_sleep(120)`;
    await handle.db.execute(sql.raw("create sequence if not exists test_mark_writes"));
    await handle.db.execute(
      sql.raw(`create or replace function test_fail_mark() returns trigger language plpgsql as $$
        begin
          if nextval('test_mark_writes') = 1 then ${act}; end if;
          return new;
        end $$`),
    );
    await handle.db.execute(
      sql.raw("create trigger test_fail_mark before insert or update on order_sync_state for each row execute function test_fail_mark()"),
    );
  }

  async function sender<T>(handle: DatabaseHandle, work: (boss: PgBoss) => Promise<T>): Promise<T> {
    const boss = await startBoss(handle);
    try {
      return await work(boss);
    } finally {
      await boss.stop({ graceful: false, close: true });
    }
  }

  /**
   * Until the import is done, or has failed for good (its last attempt's failure, which no retry follows): an event
   * either way, never a deadline, so a slow machine only waits longer. The test's own timeout bounds a hang.
   */
  async function waitForImport(handle: DatabaseHandle): Promise<void> {
    for (;;) {
      const row = await findBackfill(handle.db, STORE);
      if (row?.status === "done") return;
      if (row?.status === "failed") throw new Error(`the import failed: ${JSON.stringify(row)}`);
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
      worker = await workerOn(handle, { fetch: faultAfterTwoPages, retry: { maxAttempts: 1 } });
      await install(handle, worker.boss);
      await waitForImport(handle);

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

  it("a failure between the last page and the finish: the retry finishes from the last saved page, counters once", async () => {
    const handle = await createTestDatabase();
    let worker: JobWorker | undefined;
    try {
      await failFirstMarkWrite(handle, "raise");
      proxy.calls.length = 0;
      worker = await workerOn(handle, { retry: { maxAttempts: 1 } });
      await install(handle, worker.boss);
      await waitForImport(handle);

      const cursors = orderPageCursors(proxy.calls);
      // The first page was read once: the last page's retry read that page again, never the import from the start.
      expect(cursors.filter((cursor) => cursor === "")).toHaveLength(1);
      expect(cursors).toHaveLength(5);
      expect(cursors[3]).toBe(cursors[4]);
      expect(await storedCount(handle)).toBe(platformCount());
      expect(await findBackfill(handle.db, STORE)).toMatchObject({ status: "done", pages: 4, imported: platformCount(), cursor: null });
      expect((await findSyncState(handle.db, STORE))?.sinceCursor?.getTime()).toBe(newestCreatedAt());
    } finally {
      await worker?.stop(1_000);
      await handle.close();
    }
  }, 120_000);

  it("a re-install while the old run's last attempt is in flight: the old token's 401 fails nothing of the new run, which imports", async () => {
    const handle = await createTestDatabase();
    let worker: JobWorker | undefined;
    // Let go in `finally` too: a held call left hanging kept the worker from stopping, and a failure below then
    // surfaced only as this test's timeout, without its own message.
    let release = (): void => {};
    try {
      proxy.calls.length = 0;
      // The old run's second page is held, already signed with the old token, until the re-install has happened.
      let listCalls = 0;
      let secondAsked = (): void => {};
      const asked = new Promise<void>((resolve) => (secondAsked = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      const holdSecondPage: typeof fetch = async (input, init) => {
        if (new URL(String(input)).pathname === "/v1/orders" && ++listCalls === 2) {
          secondAsked();
          await released;
          // The hold is the test's, not the platform's: the client's per-attempt timer started before it, and a hold
          // longer than that timer (a loaded machine) turned the old token's 401 into a timeout.
          return fetch(input, { ...init, signal: AbortSignal.timeout(DEFAULT_TIMEOUT_MS) });
        }
        return fetch(input, init);
      };
      // Every attempt is the last (the old run's 401 is final, as when its retries ran out): set before the send,
      // which copies the queue's retry limit into the job.
      await sender(handle, (boss) => boss.updateQueue(JOB.backfill, { retryLimit: 0 }));
      // The client keeps its own retries, as in production: a call that met a dropped connection is sent again,
      // and only the platform's answer (the 401, never retried) is final. With them off too, one reset connection
      // before the second page failed the old run for good, and the test waited in vain for that page.
      worker = await workerOn(handle, { fetch: holdSecondPage });
      await install(handle, worker.boss);
      // Only the old run's job has no retry left: the new run's may retry (a loaded machine times calls out).
      await worker.boss.updateQueue(JOB.backfill, { retryLimit: 8 });
      const oldRun = (await findBackfill(handle.db, STORE))?.runId;
      // The old run asks for its second page, or fails before it (then its row says why): events, not a deadline.
      let askedYet = false;
      void asked.then(() => (askedYet = true));
      while (!askedYet) {
        const row = await findBackfill(handle.db, STORE);
        if (row?.status === "failed") throw new Error(`the old run failed before asking for its second page: ${JSON.stringify(row)}`);
        await Promise.race([asked, new Promise((resolve) => setTimeout(resolve, 200))]);
      }
      while (((await findBackfill(handle.db, STORE))?.pages ?? 0) < 1) await new Promise((resolve) => setTimeout(resolve, 20));
      await consent(handle, worker.boss);
      const newRun = (await findBackfill(handle.db, STORE))?.runId;
      expect(newRun).not.toBe(oldRun);
      release();
      await waitForImport(handle);

      const row = await findBackfill(handle.db, STORE);
      expect(row).toMatchObject({ runId: newRun, status: "done", pages: 4, lastError: null });
      expect(await storedCount(handle)).toBe(platformCount());
      // Two runs, each from the first page: the old one's first page and the new one's.
      expect(orderPageCursors(proxy.calls).filter((cursor) => cursor === "")).toHaveLength(2);
      const failed = await worker.boss.findJobs(JOB.backfill);
      // The old run's chunk did fail for good, on the revoked token.
      expect(failed.some((job) => job.state === "failed" && /401|revoked|unauthori/i.test(JSON.stringify(job.output)))).toBe(true);
    } finally {
      release();
      await worker?.stop(1_000);
      await handle.close();
    }
  }, 240_000);

  it("a worker killed with SIGKILL mid-import: after a restart the import resumes from the page it reached", async () => {
    const database = await databaseForAChild("starter-backfill");
    let handle = await database.open();
    let worker: JobWorker | undefined;
    try {
      await migrateDatabase(handle);
      await sender(handle, (boss) => install(handle, boss));
      if (database.embedded) await handle.close();

      // Killed once it asks for its fourth page: it asks for a page while writing the one before, so by then at
      // least two pages are saved, and the third or the fourth is not.
      proxy.calls.length = 0;
      await killChildOnce(WORKER_CHILD, { target: database.target, proxy, reached: () => orderPageCursors(proxy.calls).length >= 4, what: "its fourth page" });
      const beforeKill = orderPageCursors(proxy.calls);

      if (database.embedded) handle = await database.open();
      expect(await storedCount(handle)).toBeLessThan(platformCount());
      const reached = await findBackfill(handle.db, STORE);
      expect(reached?.pages).toBeGreaterThanOrEqual(2);
      expect((await findSyncState(handle.db, STORE))?.sinceCursor ?? null).toBeNull();

      worker = await workerOn(handle);
      await waitForImport(handle);

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
      await database.drop();
    }
  }, 180_000);

  it("a worker killed with SIGKILL between storing the last page and finishing: the import finishes once, never from page 1", async () => {
    const database = await databaseForAChild("starter-backfill");
    let handle = await database.open();
    let worker: JobWorker | undefined;
    try {
      await migrateDatabase(handle);
      // The finish's first write of the polling mark hangs: the child is killed while it waits there.
      await failFirstMarkWrite(handle, database.embedded ? "announce and sleep" : "sleep");
      await sender(handle, (boss) => install(handle, boss));
      if (database.embedded) await handle.close();

      const sleepingInTheFinish = async () => {
        if (orderPageCursors(proxy.calls).length < 4) return false;
        // The embedded folder is the child's alone: the finish's write says so itself, with a file beside the data.
        if (database.embedded) return existsSync(path.join(database.target, FINISH_MARKER));
        // On a server the wait is visible: the child's statement sleeps in the mark's write.
        const result = await handle.db.execute(sql`select count(*)::int as n from pg_stat_activity where wait_event = 'PgSleep' and datname = current_database()`);
        return Number((result as unknown as { rows?: { n: number }[] }).rows?.[0]?.n ?? (result as unknown as { n: number }[])[0]?.n) > 0;
      };
      proxy.calls.length = 0;
      await killChildOnce(WORKER_CHILD, { target: database.target, proxy, reached: sleepingInTheFinish, what: "the finish" });
      // A server notices a dead client only when it next talks to it: end the orphaned sleep as it eventually would.
      if (!database.embedded) await handle.db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity where wait_event = 'PgSleep' and datname = current_database()`);

      if (database.embedded) handle = await database.open();
      await handle.db.execute(sql`drop trigger test_fail_mark on order_sync_state`);
      expect((await findBackfill(handle.db, STORE))?.status).toBe("running");
      worker = await workerOn(handle);
      await waitForImport(handle);

      const cursors = orderPageCursors(proxy.calls);
      expect(cursors.filter((cursor) => cursor === "")).toHaveLength(1);
      expect(cursors).toHaveLength(5);
      expect(await storedCount(handle)).toBe(platformCount());
      expect(await findBackfill(handle.db, STORE)).toMatchObject({ status: "done", pages: 4, imported: platformCount() });
      expect((await findSyncState(handle.db, STORE))?.sinceCursor?.getTime()).toBe(newestCreatedAt());
    } finally {
      await worker?.stop(1_000);
      await handle.close().catch(() => undefined);
      await database.drop();
    }
  }, 180_000);
});
