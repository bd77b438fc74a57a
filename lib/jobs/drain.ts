import type { DatabaseHandle } from "@/db/client";
import type { PlatformOptions } from "@/lib/platform";
import type { JobName } from "./queues";
import { sendDueWork, startWorker } from "./runtime";
import { queueStats, type QueueFigures } from "./stats";

/**
 * The cron route's work on a serverless host: send what is due (this minute's polls, the daily purge), work the
 * queue until `deadlineMs` or until it is empty, then stop, handing back whatever still runs (a backfill chunk
 * stops at its next page and re-enqueues itself; anything else is retried by the engine).
 */
export type DrainReport = {
  ranMs: number;
  /** Jobs this call finished, per kind. */
  done: Partial<Record<JobName, { ok: number; failed: number }>>;
  /** The queue as this call left it. */
  left: QueueFigures[];
};

export async function workUntil(
  handle: DatabaseHandle,
  options: { deadlineMs: number; handBackMs?: number; platform?: Omit<PlatformOptions, "db"> },
): Promise<DrainReport> {
  const started = Date.now();
  const done: DrainReport["done"] = {};
  const worker = await startWorker(handle, {
    platform: options.platform,
    pollingIntervalSeconds: 1,
    onJobDone: (name, ok) => {
      const entry = (done[name] ??= { ok: 0, failed: 0 });
      if (ok) entry.ok++;
      else entry.failed++;
    },
  });
  let left: QueueFigures[] = [];
  try {
    await sendDueWork(worker.boss);
    // Empty twice in a row (a fan-out's polls are sent a moment after it runs): nothing more to do this call.
    let emptyChecks = 0;
    while (Date.now() - started < options.deadlineMs && emptyChecks < 2) {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const figures = await queueStats(worker.boss);
      const waitingNow = figures.some((row) => row.active > 0 || row.queued > 0);
      emptyChecks = waitingNow ? 0 : emptyChecks + 1;
      left = figures;
    }
  } finally {
    await worker.stop(options.handBackMs ?? 8_000);
  }
  return { ranMs: Date.now() - started, done, left };
}
