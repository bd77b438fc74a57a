import { randomUUID } from "node:crypto";
import type { DatabaseHandle, Db } from "@/db/client";
import type { Logger } from "@/lib/log";
import type { PlatformOptions } from "@/lib/platform";
import { workUntil, type DrainReport } from "./drain";
import { claimDrainAsk, endDrainLease, takeDrainLease } from "./drain-lease";

/**
 * Jobs on a host where no process outlives a request (JOBS_WORKER=requests): one drain at a time works the queue,
 * in the cron route's invocation, after its answer. A page view, an install or a retry starts no worker of its own:
 * after its answer it asks for the drain (askForDrain: one statement, and at most one view of a burst sends the ask).
 *
 * The drain (drainOnce) holds a lease in the database until its function's time limit, counted from its route's
 * start, so at most one drain runs across every instance; it takes back what an earlier drain left running (a
 * function the platform killed mid-chunk), works the app's own queues until its deadline, and, only when it
 * finished a job and jobs are still ready, hands on to a fresh invocation, at most MAX_HOPS times in a chain. A
 * chain stops at a job that fails at once, at a queue no worker of this app handles, and at a retry due later: the
 * next page view, install, retry or cron call starts it again.
 */

/** Sent by the app to its own cron route: answer at once (202) and drain after the answer. */
export const CONTINUE_HEADER = "x-jobs-continue";
/** How many hand-ons came before this invocation (0 for a page view's ask or a scheduled call). */
export const HOP_HEADER = "x-jobs-hop";

/** The function's time limit the drain routes declare (`maxDuration`). */
export const DRAIN_MAX_DURATION_SECONDS = 60;
/** Work until 40 s after the route's start, then up to 10 s to hand back: inside the 60 s limit. */
export const AFTER_RESPONSE_WORK_MS = 40_000;
export const AFTER_RESPONSE_HAND_BACK_MS = 10_000;
/** The lease outlasts the function's time limit a little: a drain never outlives its lease, since the host kills it. */
export const DRAIN_LEASE_MS = DRAIN_MAX_DURATION_SECONDS * 1000 + 5_000;
/**
 * Hand-ons in one chain: 20 invocations of 40 s carry an import of about 1,500 pages (75,000 orders) at the
 * install's pace; beyond that the next page view or cron call starts a new chain. A bound on what one call can
 * start, whatever goes wrong.
 */
export const MAX_HOPS = 20;
/** Page views ask for a drain at most once in this long (a burst of views, one ask). */
export const ASK_QUIET_MS = 10_000;

export type RequestDrivenOptions = {
  /** When the invocation began (its route's start): deadline and lease are counted from there. */
  startedAt?: number;
  deadlineMs?: number;
  handBackMs?: number;
  leaseMs?: number;
  /** Hand-ons before this invocation (HOP_HEADER). */
  hop?: number;
  platform?: Omit<PlatformOptions, "db">;
  /** Send the minute's polls and the day's purge first (a scheduled cron call). */
  sendDue?: boolean;
  /** Take back jobs an ended drain left active: only where drains alone work the queue (default true). */
  takeBack?: boolean;
  /** Starts another invocation that carries on (the cron route, asked to drain after its answer), as hop `hop`. */
  continueElsewhere?: (hop: number) => Promise<void>;
  logger?: Logger;
};

export type RequestDrivenReport = DrainReport & {
  continued: boolean;
  /** Another drain held the lease: this call worked nothing. */
  skipped: boolean;
};

const SKIPPED: RequestDrivenReport = { ranMs: 0, done: {}, left: [], ready: 0, stillRunning: 0, takenBack: 0, continued: false, skipped: true };

/** The one drain: under the lease, work the queue until the deadline, then hand on if that is worth it. */
export async function drainOnce(handle: DatabaseHandle, options: RequestDrivenOptions = {}): Promise<RequestDrivenReport> {
  const startedAt = options.startedAt ?? Date.now();
  const holder = randomUUID();
  if (!(await takeDrainLease(handle.db, holder, new Date(startedAt + (options.leaseMs ?? DRAIN_LEASE_MS))))) {
    return { ...SKIPPED, ranMs: Date.now() - startedAt };
  }
  let report: DrainReport | undefined;
  try {
    report = await workUntil(handle, {
      startedAt,
      deadlineMs: options.deadlineMs ?? AFTER_RESPONSE_WORK_MS,
      handBackMs: options.handBackMs ?? AFTER_RESPONSE_HAND_BACK_MS,
      platform: options.platform,
      // The minute's polls are the scheduler's: request traffic must not decide how often every store is polled.
      sendDue: options.sendDue ?? false,
      takeBack: options.takeBack ?? true,
    });
  } finally {
    // A job still running after the hand-back time keeps the lease to its end (the function's limit): no second
    // drain may take its store meanwhile.
    if (!report || report.stillRunning === 0) await endDrainLease(handle.db, holder);
  }
  const hop = options.hop ?? 0;
  // Progress: a job finished well. A call that finished nothing, or only failures, hands nothing on: a job that
  // fails at once and is due again at once, or one no call can finish, must not chain invocations.
  const progress = Object.values(report.done).some((kind) => kind.ok > 0);
  const worthIt = report.ready > 0 && progress && report.stillRunning === 0 && hop < MAX_HOPS;
  if (!worthIt || !options.continueElsewhere) return { ...report, continued: false, skipped: false };
  try {
    await options.continueElsewhere(hop + 1);
    return { ...report, continued: true, skipped: false };
  } catch (error) {
    // The jobs wait for the next page view, install, retry or cron call.
    options.logger?.warn("could not hand the job queue to a next invocation", { error: error instanceof Error ? error.message : "unknown" });
    return { ...report, continued: false, skipped: false };
  }
}

/** The name the existing callers know: work the ready jobs as the one drain. */
export const workReadyJobs = drainOnce;

/**
 * A page view's (or an install's, or a retry's) part, after its answer: one statement; when no drain runs, the
 * app's queues have work and no other view asked in the last ASK_QUIET_MS, `ask` is called (the app asks its cron
 * route for the drain). True when it asked.
 */
export async function askForDrain(db: Db, ask: () => Promise<void>, quietMs = ASK_QUIET_MS): Promise<boolean> {
  if (!(await claimDrainAsk(db, quietMs))) return false;
  await ask();
  return true;
}
