import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { PgBoss } from "pg-boss";
import type { DatabaseHandle } from "@/db/client";
import { findBackfill } from "@/db/queries/backfills";
import { findInstall } from "@/db/queries/installs";
import { findSyncState } from "@/db/queries/sync-state";
import { installs } from "@/db/schema";
import { startEmulator, type RunningEmulator } from "@/emulator/src/index";
import { saveInstalledStores } from "@/lib/installs/tokens";
import { enqueueBackfills, retryBackfill } from "@/lib/jobs/backfill";
import { JOB_SCHEMA, startBoss } from "@/lib/jobs/boss";
import { inTransaction } from "@/lib/jobs/in-transaction";
import { jobInStatement } from "@/lib/jobs/in-statement";
import { JOB, QUEUES, type JobName } from "@/lib/jobs/queues";
import { fanOutPolls, NEW_ORDER_BATCH_SIZE, sendDueWork, startWorker, type JobWorker } from "@/lib/jobs/runtime";
import { lastErrors, queueStats, retryJob } from "@/lib/jobs/stats";
import { workUntil } from "@/lib/jobs/drain";
import { setLogSink } from "@/lib/log";
import { pollableStoreIds } from "@/lib/sync/orders-sync";
import { sendsJob, webhookFollowUps } from "@/lib/jobs/webhook-follow-ups";
import { receiveWebhook } from "@/lib/webhooks/receive";
import { sampleEnvelope } from "@/lib/webhooks/samples";
import { findOrder } from "@/db/queries/orders";
import { createTestDatabase, databaseKind } from "../helpers/database";
import { clearStoresAndJobs } from "../helpers/jobs-state";
import { orderPageCursors, startRecordingProxy, type RecordingProxy } from "../helpers/recording-proxy";
import { signedWebhookRequest } from "../helpers/webhook-request";

const DAY = 24 * 60 * 60 * 1000;

async function until<T>(what: string, check: () => Promise<T | null | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The jobs besides the import: per-store polls, retention, the queue's figures and a retry, the worker command. */
describe(`jobs (${databaseKind()})`, () => {
  let handle: DatabaseHandle;
  let emulator: RunningEmulator;
  let proxy: RecordingProxy;
  let sender: PgBoss;
  let restoreLog: () => void;

  beforeAll(async () => {
    restoreLog = setLogSink(() => {});
    handle = await createTestDatabase();
    sender = await startBoss(handle);
  });
  beforeEach(async () => {
    await emulator?.close();
    await proxy?.close();
    await clearStoresAndJobs(handle);
    emulator = await startEmulator({ port: 0, appUrl: "http://127.0.0.1:9", dataFile: null, autoTick: false, quiet: true });
    proxy = await startRecordingProxy(emulator.url);
    for (const [storeId, scopes] of [
      [101, ["orders:read"]],
      [102, ["orders:read"]],
      [103, ["products:read"]],
    ] as const) {
      const minted = emulator.control.mintInstall(storeId, [...scopes]);
      await saveInstalledStores(handle.db, {
        scopes: [...scopes],
        stores: [{ storeId, storeName: `Store ${storeId}`, installId: minted.installId, accessToken: minted.accessToken }],
      });
    }
  });
  afterAll(async () => {
    await sender?.stop({ graceful: false, close: true });
    await emulator?.close();
    await proxy?.close();
    await handle?.close();
    restoreLog?.();
  });

  it("the fan-out sends one poll per pollable store, and at most one waits per store however often it runs", async () => {
    const stores = await pollableStoreIds(handle.db);
    expect(stores).toEqual([101, 102]);
    await fanOutPolls(sender, stores);
    await fanOutPolls(sender, stores);
    await fanOutPolls(sender, stores);
    const waiting = await sender.findJobs<{ storeId: number }>(JOB.poll, { queued: true });
    expect(waiting.map((job) => job.data.storeId).sort()).toEqual([101, 102]);
    expect((await queueStats(sender)).find((row) => row.name === JOB.poll)).toMatchObject({ queued: 2, active: 0, failed: 0 });
  });

  it("a job sent to a queue with notify wakes the worker at once; the follow-up written inside the webhook's statement has none", async () => {
    expect(QUEUES[JOB.pollFanOut].notify).toBe(true);
    expect(QUEUES[JOB.poll].notify).toBe(true);
    expect(QUEUES[JOB.backfill].notify).toBe(true);
    expect(QUEUES[JOB.newOrder].notify).toBeFalsy();
    const started: { name: JobName; at: number }[] = [];
    let worker: JobWorker | undefined;
    try {
      // Its loops look for work as they start, then not again for ten minutes, far past this test's time: a job sent
      // after that first look that starts at all was woken, not found. No clock judges it, so a slow machine cannot
      // fail it.
      worker = await startWorker(handle, {
        platform: { baseUrl: proxy.url },
        pollingIntervalSeconds: 600,
        idlePollingSeconds: 600,
        onJobStart: (name) => started.push({ name, at: Date.now() }),
      });
      const looked = (name: JobName) => worker!.boss.getWipData().some((loop) => loop.name === name && loop.lastFetchedOn);
      await until("the loops' first look", async () => looked(JOB.pollFanOut) && looked(JOB.poll), 50_000);
      await sendDueWork(sender);
      await until("the fan-out starts", async () => started.find((entry) => entry.name === JOB.pollFanOut), 50_000);
      // The polls the fan-out sends wake the poll loops the same way.
      await until("a poll starts", async () => started.find((entry) => entry.name === JOB.poll), 50_000);
    } finally {
      await worker?.stop();
    }
  }, 60_000);

  it("a worker polls each store from what is due, and the daily purge runs once however often it is asked", async () => {
    // A store uninstalled 40 days ago: the purge deletes it.
    await handle.db
      .update(installs)
      .set({ state: "uninstalled", uninstalledAt: new Date(Date.now() - 40 * DAY), tokenCiphertext: null, tokenKeyId: null })
      .where(eq(installs.storeId, 103));
    let worker: JobWorker | undefined;
    try {
      worker = await startWorker(handle, { platform: { baseUrl: proxy.url }, pollingIntervalSeconds: 1 });
      await sendDueWork(worker.boss);
      await sendDueWork(worker.boss);
      for (const storeId of [101, 102]) {
        const state = await until(`store ${storeId} polled`, async () => (await findSyncState(handle.db, storeId))?.lastSyncedAt);
        expect(state).toBeInstanceOf(Date);
      }
      await until("store 103 purged", async () => (await findInstall(handle.db, 103)) === null);
      const retention = await sender.findJobs(JOB.retention);
      expect(retention).toHaveLength(1);
    } finally {
      await worker?.stop(1_000);
    }
  }, 90_000);

  it("a cron call sends what is due, works the queue until it is empty, and reports per kind what it did", async () => {
    const report = await workUntil(handle, { deadlineMs: 40_000, handBackMs: 1_000, platform: { baseUrl: proxy.url } });
    expect(report.done[JOB.pollFanOut]).toEqual({ ok: 1, failed: 0 });
    expect(report.done[JOB.poll]).toEqual({ ok: 2, failed: 0 });
    expect(report.done[JOB.retention]).toEqual({ ok: 1, failed: 0 });
    expect(report.left.every((row) => row.active === 0 && row.queued === 0)).toBe(true);
    for (const storeId of [101, 102]) expect((await findSyncState(handle.db, storeId))?.lastSyncedAt).toBeInstanceOf(Date);
    // The same day again: the purge is not due twice (pg-boss's singleton window is the UTC day).
    const again = await workUntil(handle, { deadlineMs: 40_000, handBackMs: 1_000, platform: { baseUrl: proxy.url } });
    expect(again.done[JOB.retention]).toBeUndefined();
  }, 120_000);

  it("an import whose retries ran out shows failed, is listed with its error, and a retry goes on from its cursor", async () => {
    await sender.updateQueue(JOB.backfill, { retryLimit: 0 });
    let worker: JobWorker | undefined;
    try {
      await handle.db.transaction((tx) => enqueueBackfills(sender, tx, [101]));
      for (let i = 0; i < 60; i++) emulator.control.placeOrder(101);
      let listCalls = 0;
      const failSecondPage: typeof fetch = async (input, init) => {
        if (new URL(String(input)).pathname === "/v1/orders" && ++listCalls === 2) {
          emulator.control.addFaults([{ kind: "status", status: 503, times: 1, pathPrefix: "/v1/orders" }]);
        }
        return fetch(input, init);
      };
      worker = await startWorker(handle, {
        platform: { baseUrl: proxy.url, fetch: failSecondPage, retry: { maxAttempts: 1 } },
        pollingIntervalSeconds: 1,
      });
      const failed = await until("import failed", async () => {
        const row = await findBackfill(handle.db, 101);
        return row?.status === "failed" ? row : null;
      });
      expect(failed).toMatchObject({ pages: 1, imported: 50 });
      expect(failed.lastError).toMatch(/503/);
      // The row is marked before the engine fails the job: wait for the engine too.
      await until("the job failed", async () => (await queueStats(sender)).find((row) => row.name === JOB.backfill)?.failed === 1);
      const [error] = await lastErrors(sender);
      expect(error).toMatchObject({ name: JOB.backfill, key: "101", state: "failed" });
      expect(error?.error).toMatch(/503/);

      // The engine's retry (npm run jobs -- retry <id>) puts the job back; the merchant's retry resumes the row.
      expect(await retryJob(sender, error!.id)).toBe(true);
      expect(await retryJob(sender, "00000000-0000-0000-0000-000000000000")).toBe(false);
      expect(await retryBackfill(sender, handle.db, 101)).toBe(true);
      const done = await until("import done", async () => {
        const row = await findBackfill(handle.db, 101);
        return row?.status === "done" ? row : null;
      });
      expect(done.imported).toBe(emulator.ctx.state.orders.filter((order) => order.store_id === 101).length);
      expect(orderPageCursors(proxy.calls).filter((cursor) => cursor === "")).toHaveLength(1);
    } finally {
      await worker?.stop(1_000);
      await sender.updateQueue(JOB.backfill, { retryLimit: 8 });
    }
  }, 90_000);

  it("an order.created webhook sends its follow-up job in the event's own statement: once per event, none for a duplicate or a store without an install", async () => {
    const secret = "svcwhsec_" + "5e".repeat(24);
    const followUps = webhookFollowUps(sender);
    const deliver = async (envelope: Record<string, unknown>) => {
      const request = signedWebhookRequest(envelope, secret);
      return (await receiveWebhook(request, { db: handle.db, secret, followUps })).json() as Promise<Record<string, unknown>>;
    };
    const created = sampleEnvelope("order.created", { storeId: 101, orderId: 7001, at: new Date() });
    expect(await deliver(created)).toMatchObject({ ok: true, duplicate: false, effect: "order_inserted" });
    expect(await deliver(created)).toMatchObject({ ok: true, duplicate: true });
    expect(await deliver(sampleEnvelope("order.status_changed", { storeId: 101, orderId: 7001, at: new Date() }))).toMatchObject({ ok: true });
    expect(await deliver(sampleEnvelope("order.created", { storeId: 999, orderId: 7002, at: new Date() }))).toMatchObject({ ok: true, effect: "no_install" });
    const jobs = await sender.findJobs<{ storeId: number; orderId: number; eventId: string }>(JOB.newOrder);
    expect(jobs.map((job) => job.data)).toEqual([{ storeId: 101, orderId: 7001, eventId: String(created.id) }]);
    // The queue's own settings, as a plain send gives them.
    expect(jobs[0]).toMatchObject({ state: "created", retryLimit: QUEUES[JOB.newOrder].retryLimit, expireInSeconds: QUEUES[JOB.newOrder].expireInSeconds });
    expect(await findOrder(handle.db, 101, 7001)).not.toBeNull();
  });

  it("a follow-up job whose insert cannot join the event's statement (a queue with notify) is sent in the claim's transaction", async () => {
    const queue = "test-notify-follow-up";
    await sender.deleteQueue(queue);
    await sender.createQueue(queue, { notify: true });
    expect(await jobInStatement(sender, queue, { n: 1 })).toBeNull();
    expect(await jobInStatement(sender, JOB.newOrder, { n: 1 })).not.toBeNull();
    expect(await sender.findJobs(JOB.newOrder)).toEqual([]);

    const secret = "svcwhsec_" + "5e".repeat(24);
    const followUps = { "order.created": sendsJob(sender, queue as JobName, (event) => ({ eventId: event.id })) };
    const created = sampleEnvelope("order.created", { storeId: 101, orderId: 7003, at: new Date() });
    for (let copy = 0; copy < 2; copy++) {
      const request = signedWebhookRequest(created, secret);
      expect((await receiveWebhook(request, { db: handle.db, secret, followUps })).status).toBe(200);
    }
    expect((await sender.findJobs<{ eventId: string }>(queue)).map((job) => job.data)).toEqual([{ eventId: String(created.id) }]);
    await sender.deleteQueue(queue);
  });

  it("inTransaction: a job sent through it commits or rolls back with the transaction, and array parameters bind", async () => {
    await handle.db
      .transaction(async (tx) => {
        await sender.send(JOB.newOrder, { storeId: 101, orderId: 1, eventId: "evt_0a" }, { db: inTransaction(tx) });
        throw new Error("rolled back");
      })
      .catch(() => {});
    const id = await handle.db.transaction((tx) => sender.send(JOB.newOrder, { storeId: 101, orderId: 2, eventId: "evt_0b" }, { db: inTransaction(tx) }));
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await sender.findJobs<{ eventId: string }>(JOB.newOrder)).map((job) => job.data.eventId)).toEqual(["evt_0b"]);
    // pg-boss binds ids as `ANY($2::uuid[])` (cancel, complete, fail): the array goes through whole.
    await handle.db.transaction((tx) => sender.cancel(JOB.newOrder, [id!, "00000000-0000-0000-0000-000000000000"], { db: inTransaction(tx) }));
    expect((await sender.findJobs(JOB.newOrder, { id: id! }))[0]?.state).toBe("cancelled");
    const { rows } = await inTransaction(handle.db).executeSql("select array_to_json($1::text[]) as elements", [['a"b', "c\\d", null, "{e,f}"]]);
    expect(rows[0].elements).toEqual(['a"b', "c\\d", null, "{e,f}"]);
  });

  it("the new-order worker takes its jobs in batches: a backlog is worked at once, not one job per polling interval", async () => {
    const count = NEW_ORDER_BATCH_SIZE * 2 + 20;
    await sender.insert(JOB.newOrder, Array.from({ length: count }, (_, index) => ({ data: { storeId: 101, orderId: index, eventId: `evt_${index}` } })));
    let worker: JobWorker | undefined;
    try {
      // The loop looks as it starts and then not for ten minutes, past this test's time: the backlog completes at
      // all only if each full batch is followed at once by the next fetch. (One job a fetch, with an interval
      // between fetches, it took minutes.) Judged by that event, not by how long a loaded machine took.
      worker = await startWorker(handle, { pollingIntervalSeconds: 600 });
      await until("the backlog completed", async () => (await sender.findJobs(JOB.newOrder)).every((job) => job.state === "completed"), 50_000);
      expect(await sender.findJobs(JOB.newOrder)).toHaveLength(count);
    } finally {
      await worker?.stop(1_000);
    }
  }, 60_000);

  it("npm run worker refuses the embedded database, saying why and what to do", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "--conditions=react-server", "scripts/worker.ts"], {
      env: { ...process.env, DATABASE_URL: "", PGLITE_DIR: "/nonexistent/never-opened" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).toBe(2);
    expect(stderr).toContain("needs a PostgreSQL server (DATABASE_URL)");
    expect(stderr).toContain("would corrupt it");
    expect(stderr).toContain("set DATABASE_URL");
  });

  it.runIf(databaseKind() === "server")(
    "npm run worker answers SIGTERM by handing its running import back, and exits 0",
    async () => {
      proxy.delayMs = 400;
      for (let i = 0; i < 200; i++) emulator.control.placeOrder(102);
      await handle.db.transaction((tx) => enqueueBackfills(sender, tx, [102]));
      const child = spawn(process.execPath, ["--import", "tsx", "--conditions=react-server", "scripts/worker.ts"], {
        env: { ...process.env, NODE_ENV: "development", DATABASE_URL: handle.connectionString, SVC_API_URL: proxy.url, LOG_LEVEL: "info" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
      const lines: string[] = [];
      createInterface({ input: child.stdout }).on("line", (line) => lines.push(line));
      try {
        await until("a page of the import read", async () => orderPageCursors(proxy.calls).length >= 2, 60_000);
        child.kill("SIGTERM");
        expect(await exited).toBe(0);
        expect(lines.join("\n")).toContain("job worker stopped");
        // Nothing is left active: the chunk stopped at a page and queued its successor from the saved cursor.
        const { rows } = await sender.getDb().executeSql(`select state::text as state from ${JOB_SCHEMA}.job where name = $1`, [JOB.backfill]);
        const states = rows.map((row: { state: string }) => row.state);
        expect(states).not.toContain("active");
        expect(states.some((state) => state === "created" || state === "retry")).toBe(true);
        const row = await findBackfill(handle.db, 102);
        expect(row?.status).toBe("running");
        expect(row?.cursor).not.toBeNull();
      } finally {
        proxy.delayMs = 0;
        if (child.exitCode === null) child.kill("SIGKILL");
      }
    },
    90_000,
  );
});
