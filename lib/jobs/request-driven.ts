import type { DatabaseHandle } from "@/db/client";
import type { Logger } from "@/lib/log";
import type { PlatformOptions } from "@/lib/platform";
import { workUntil, type DrainReport } from "./drain";

/**
 * Jobs worked by the requests that create them, for hosts where no process outlives a request and the scheduler
 * may call at most once a day (Vercel's Hobby plan). The request answers first; then, within the function's time
 * limit (Next's `after()`, lib/jobs/app.ts), it works the ready jobs with the cron route's own drain. A store's
 * import is many chunks: when the deadline comes with jobs still ready (and not everything this call finished failed), the work goes
 * on in a fresh invocation (`continueElsewhere`: the app asks its own cron route to carry on, which answers at once
 * and works after its answer the same way), so an import of thousands of orders completes in minutes, hop by hop,
 * whether or not the merchant keeps a page open.
 */

/** Sent by the app to its own cron route: answer at once (202) and work the queue after the answer. */
export const CONTINUE_HEADER = "x-jobs-continue";

/** Work after the answer for 40 s, then up to 10 s to hand back: inside a 60 s function limit. */
export const AFTER_RESPONSE_WORK_MS = 40_000;
export const AFTER_RESPONSE_HAND_BACK_MS = 10_000;

export type RequestDrivenOptions = {
  deadlineMs?: number;
  handBackMs?: number;
  platform?: Omit<PlatformOptions, "db">;
  /** Starts another invocation that carries on (the cron route, asked to work after its answer). */
  continueElsewhere?: () => Promise<void>;
  logger?: Logger;
};

export type RequestDrivenReport = DrainReport & { continued: boolean };

export async function workReadyJobs(handle: DatabaseHandle, options: RequestDrivenOptions = {}): Promise<RequestDrivenReport> {
  const report = await workUntil(handle, {
    deadlineMs: options.deadlineMs ?? AFTER_RESPONSE_WORK_MS,
    handBackMs: options.handBackMs ?? AFTER_RESPONSE_HAND_BACK_MS,
    platform: options.platform,
    // The minute's polls are the scheduler's: request traffic must not decide how often every store is polled.
    sendDue: false,
  });
  // Go on unless every job this call finished failed: a job that fails at once and is due again at once must not
  // chain invocations forever. A call that finished nothing (its deadline went on starting up) goes on.
  const kinds = Object.values(report.done);
  const onlyFailures = kinds.some((kind) => kind.failed > 0) && !kinds.some((kind) => kind.ok > 0);
  if (report.ready === 0 || onlyFailures || !options.continueElsewhere) return { ...report, continued: false };
  try {
    await options.continueElsewhere();
    return { ...report, continued: true };
  } catch (error) {
    // The jobs wait for the next request that creates or shows one, or for the daily cron.
    options.logger?.warn("could not hand the job queue to a next invocation", { error: error instanceof Error ? error.message : "unknown" });
    return { ...report, continued: false };
  }
}
