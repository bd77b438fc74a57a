import { sql } from "drizzle-orm";
import type { PgBoss } from "pg-boss";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { JOB_SCHEMA, startBoss } from "@/lib/jobs/boss";
import { JOB } from "@/lib/jobs/queues";
import { startWorker, type JobWorker } from "@/lib/jobs/runtime";
import { setLogSink } from "@/lib/log";
import { collectJobQueue, registerScrapeCollectors } from "@/lib/observability/collectors";
import { renderMetrics, unregisterCollector } from "@/lib/observability/registry";
import { createTestDatabase, databaseKind } from "../helpers/database";
import { sampleValue } from "../helpers/metrics-text";

/**
 * The job engine's figures move with the jobs: the queue's depth, failures and oldest age are read from pg-boss's
 * table when scraped, and each run a worker finishes is counted by kind and outcome on that worker's process.
 */

async function metric(name: string, labels: Record<string, string>): Promise<number> {
  return sampleValue(await renderMetrics(), name, labels);
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe(`job metrics (${databaseKind()})`, () => {
  let handle: DatabaseHandle;
  let sender: PgBoss;
  let restoreLog: () => void;

  beforeAll(async () => {
    restoreLog = setLogSink(() => {});
    handle = await createTestDatabase();
    sender = await startBoss(handle);
    registerScrapeCollectors({ database: async () => handle, db: async () => handle.db, isOpening: () => false, jobs: async () => sender });
  });
  beforeEach(async () => {
    await handle.db.execute(sql.raw(`delete from ${JOB_SCHEMA}.job`));
  });
  afterAll(async () => {
    for (const name of ["database_pool", "order_sync", "job_queue", "scope_gaps"]) unregisterCollector(name);
    await sender.stop({ graceful: false, close: true });
    await handle.close();
    restoreLog();
  });

  it("reports waiting jobs per kind, and how long the oldest has waited", async () => {
    const empty = await collectJobQueue(sender);
    expect(empty.find((m) => m.name === "store_app_job_queue_depth")?.series).toContainEqual({
      labels: { kind: JOB.newOrder, state: "queued" },
      value: 0,
    });

    await sender.send(JOB.newOrder, { storeId: 101, orderId: 1, eventId: "evt_a1" });
    await sender.send(JOB.newOrder, { storeId: 101, orderId: 2, eventId: "evt_a2" });
    await handle.db.execute(sql.raw(`update ${JOB_SCHEMA}.job set created_on = now() - interval '90 seconds' where name = '${JOB.newOrder}'`));

    expect(await metric("store_app_job_queue_depth", { kind: JOB.newOrder, state: "queued" })).toBe(2);
    expect(await metric("store_app_job_queue_depth", { kind: JOB.backfill, state: "queued" })).toBe(0);
    const age = await metric("store_app_job_oldest_queued_age_seconds", { kind: JOB.newOrder });
    expect(age).toBeGreaterThanOrEqual(90);
    expect(age).toBeLessThan(600);
  });

  it("counts jobs failed for good", async () => {
    const id = await sender.send(JOB.newOrder, { storeId: 101, orderId: 3, eventId: "evt_a3" });
    expect(id).toBeTruthy();
    await handle.db.execute(sql.raw(`update ${JOB_SCHEMA}.job set state = 'failed', output = '{"message":"boom"}' where id = '${id}'`));
    expect(await metric("store_app_job_failed", { kind: JOB.newOrder })).toBe(1);
    expect(await metric("store_app_job_queue_depth", { kind: JOB.newOrder, state: "queued" })).toBe(0);
  });

  it("counts each run a worker finishes, by kind and outcome", async () => {
    const completed = { kind: JOB.newOrder, outcome: "completed" };
    const before = await metric("store_app_job_runs_total", completed);
    let worker: JobWorker | undefined;
    try {
      worker = await startWorker(handle, { pollingIntervalSeconds: 0.5 });
      await sender.send(JOB.newOrder, { storeId: 101, orderId: 4, eventId: "evt_a4" });
      await until("the job to be counted", async () => (await metric("store_app_job_runs_total", completed)) > before);
      expect(await metric("store_app_job_runs_total", completed)).toBe(before + 1);
      expect(await metric("store_app_job_run_duration_seconds_count", { kind: JOB.newOrder })).toBeGreaterThanOrEqual(1);
    } finally {
      await worker?.stop(5_000);
    }
  });
});
