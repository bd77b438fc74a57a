import { sql } from "drizzle-orm";
import { rowsOf, type DatabaseHandle } from "@/db/client";
import type { PlatformOptions } from "@/lib/platform";
import { JOB_SCHEMA } from "./boss";
import type { JobName } from "./queues";
import { sendDueWork, startWorker } from "./runtime";
import { queueStats, type QueueFigures } from "./stats";

/**
 * Work the queue for a while in a process that has no worker of its own: the cron route on a serverless host, and
 * the work done after the response of a request that created jobs (lib/jobs/request-driven.ts). Optionally send
 * what is due first (the minute's polls, the daily purge), then work until `deadlineMs` or until nothing is ready,
 * then stop, handing back whatever still runs (a backfill chunk stops at its next page and re-enqueues itself;
 * anything else is retried by the engine).
 */
export type DrainReport = {
  ranMs: number;
  /** Jobs this call finished, per kind. */
  done: Partial<Record<JobName, { ok: number; failed: number }>>;
  /** The queue as this call left it. */
  left: QueueFigures[];
  /** Jobs that could start now (new, or whose retry is due) when this call stopped. */
  ready: number;
};

export async function workUntil(
  handle: DatabaseHandle,
  options: {
    deadlineMs: number;
    handBackMs?: number;
    platform?: Omit<PlatformOptions, "db">;
    /** Send the minute's polls and the day's purge first (the cron route); false for request-driven work. */
    sendDue?: boolean;
  },
): Promise<DrainReport> {
  const started = Date.now();
  const done: DrainReport["done"] = {};
  let running = 0;
  const worker = await startWorker(handle, {
    platform: options.platform,
    pollingIntervalSeconds: 1,
    // A call of a few seconds, often through a pooler that cannot LISTEN: a connection of its own would buy nothing.
    listen: false,
    onJobStart: () => running++,
    onJobDone: (name, ok) => {
      running--;
      const entry = (done[name] ??= { ok: 0, failed: 0 });
      if (ok) entry.ok++;
      else entry.failed++;
    },
  });
  let left: QueueFigures[] = [];
  let ready = 0;
  try {
    if (options.sendDue ?? true) await sendDueWork(worker.boss);
    // Idle twice in a row (a fan-out's polls are sent a moment after it runs): nothing more to do this call. A job
    // waiting for a retry later does not hold the call, nor does one another process runs: only jobs that could
    // run now and this call's own running ones do.
    let idleChecks = 0;
    while (Date.now() - started < options.deadlineMs && idleChecks < 2) {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const figures = await queueStats(worker.boss);
      ready = await readyJobs(handle);
      const busy = ready > 0 || running > 0;
      idleChecks = busy ? 0 : idleChecks + 1;
      left = figures;
    }
  } finally {
    await worker.stop(options.handBackMs ?? 8_000);
  }
  // What the hand-back left (a stopped backfill chunk queued its successor).
  ready = await readyJobs(handle);
  return { ranMs: Date.now() - started, done, left, ready };
}

/** Jobs a worker could take now: new ones and due retries, not those waiting for a later start. */
async function readyJobs(handle: DatabaseHandle): Promise<number> {
  const result = await handle.db.execute(
    sql.raw(`select count(*)::int as n from ${JOB_SCHEMA}.job where state in ('created', 'retry') and start_after <= now()`),
  );
  return Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
}
