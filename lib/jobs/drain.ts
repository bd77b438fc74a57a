import type { DatabaseHandle } from "@/db/client";
import type { PlatformOptions } from "@/lib/platform";
import { failAbandonedImports, readyJobs, takeBackOrphans } from "./drain-lease";
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
  /** Jobs of the app's own queues that could start now (new, or whose retry is due) when this call stopped. */
  ready: number;
  /** Jobs this call started that had not ended when its hand-back time ran out (they still run in this process). */
  stillRunning: number;
  /** Jobs an earlier, ended drain had left marked active, which this call took back (`takeBack`). */
  takenBack: number;
};

export async function workUntil(
  handle: DatabaseHandle,
  options: {
    deadlineMs: number;
    handBackMs?: number;
    platform?: Omit<PlatformOptions, "db">;
    /** Send the minute's polls and the day's purge first (the cron route); false for request-driven work. */
    sendDue?: boolean;
    /**
     * When the invocation began (its route's start, Date.now()): the deadline is counted from there, since the
     * platform's time limit is. Defaults to this call's start.
     */
    startedAt?: number;
    /**
     * Only where drains alone work the queue (JOBS_WORKER=requests), and under the drain lease: jobs left active
     * by an earlier drain are taken back first (lib/jobs/drain-lease.ts takeBackOrphans).
     */
    takeBack?: boolean;
  },
): Promise<DrainReport> {
  const started = options.startedAt ?? Date.now();
  const done: DrainReport["done"] = {};
  let running = 0;
  let takenBack = 0;
  const worker = await startWorker(handle, {
    platform: options.platform,
    pollingIntervalSeconds: 1,
    // A call of a few seconds, often through a pooler that cannot LISTEN: a connection of its own would buy nothing.
    listen: false,
    // Before this call's own loops start, so only an ended drain's jobs are active.
    beforeWork: options.takeBack
      ? async (boss) => {
          takenBack = await takeBackOrphans(handle.db, boss);
        }
      : undefined,
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
      ready = await readyJobs(handle.db);
      const busy = ready > 0 || running > 0;
      idleChecks = busy ? 0 : idleChecks + 1;
      left = figures;
    }
  } finally {
    await worker.stop(options.handBackMs ?? 8_000);
  }
  // An import whose last attempt the engine failed (killed at its heartbeat or expiry, or taken back above) is shown
  // to the merchant as failed, with the retry, rather than running for ever.
  await failAbandonedImports(handle.db);
  // What the hand-back left (a stopped backfill chunk queued its successor).
  ready = await readyJobs(handle.db);
  return { ranMs: Date.now() - started, done, left, ready, stillRunning: running, takenBack };
}
