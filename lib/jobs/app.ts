import "server-only";
import { after } from "next/server";
import type { PgBoss } from "pg-boss";
import { getDatabase } from "@/lib/database/app-database";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { migrateJobs, startBoss } from "./boss";
import { askForDrain, CONTINUE_HEADER, drainOnce, HOP_HEADER } from "./request-driven";
import { startWorker } from "./runtime";

/**
 * The app process's job engine, one per process (kept on globalThis like the database, so dev reloads reuse it).
 * On the embedded database, or with JOBS_WORKER=inline, it is a worker that also keeps the schedules; otherwise it
 * only sends jobs, and `npm run worker`, the cron route or (JOBS_WORKER=requests) the requests that create jobs
 * work them.
 */
const globalForJobs = globalThis as unknown as { appJobs?: Promise<PgBoss> };

export function runsInlineWorker(): boolean {
  return !env.DATABASE_URL || env.JOBS_WORKER === "inline";
}

/** JOBS_WORKER=requests: no process of the app's own works the queue; requests do, after their answer. */
export function worksAfterRequests(): boolean {
  return Boolean(env.DATABASE_URL) && env.JOBS_WORKER === "requests";
}

/**
 * Called by a request that created jobs (an install's import, a retried import) or shows one running: on a host in
 * JOBS_WORKER=requests mode, once the answer is sent, ask for the one drain (lib/jobs/request-driven.ts): one
 * statement, and when no drain runs and work waits, one call to the app's own cron route, which drains after its
 * answer. The request starts no job worker and opens no job pool of its own. Without CRON_SECRET (which the doctor
 * refuses with `requests`) there is no route to ask, so the request drains itself, still under the lease. Elsewhere
 * a worker takes the jobs and this does nothing.
 */
export function workJobsAfterResponse(): void {
  if (!worksAfterRequests()) return;
  const startedAt = Date.now();
  after(async () => {
    try {
      const handle = await getDatabase();
      const logger = log.with({ component: "jobs" });
      await askForDrain(handle.db, async () => {
        if (env.CRON_SECRET) return continueInCronRoute(0);
        const report = await drainOnce(handle, { startedAt, logger });
        log.info("jobs worked after a response", { component: "jobs", ranMs: report.ranMs, ready: report.ready, skipped: report.skipped });
      });
    } catch (error) {
      log.warn("asking for the job drain failed", { component: "jobs", error: error instanceof Error ? error.message : "unknown" });
    }
  });
}

/** Asks the app's own cron route to drain after its answer (it answers 202 at once), as hand-on number `hop`. */
export async function continueInCronRoute(hop: number): Promise<void> {
  const answer = await fetch(new URL("/api/cron/jobs", env.APP_URL), {
    method: "POST",
    headers: { authorization: `Bearer ${env.CRON_SECRET}`, [CONTINUE_HEADER]: "1", [HOP_HEADER]: String(hop) },
    signal: AbortSignal.timeout(10_000),
  });
  await answer.body?.cancel();
  if (answer.status !== 202) throw new Error(`the cron route answered ${answer.status}`);
}

/**
 * The cron route's drain after its 202 (JOBS_WORKER=requests): the deadline and the lease count from the route's
 * start, and it hands on to the route again while it makes progress, up to MAX_HOPS.
 */
export function drainAfterResponse(startedAt: number, hop: number): void {
  after(async () => {
    try {
      const report = await drainOnce(await getDatabase(), { startedAt, hop, continueElsewhere: continueInCronRoute, logger: log.with({ component: "jobs" }) });
      log.info("jobs drained after a response", { component: "jobs", hop, ranMs: report.ranMs, ready: report.ready, continued: report.continued, skipped: report.skipped });
    } catch (error) {
      log.warn("job drain after a response failed", { component: "jobs", error: error instanceof Error ? error.message : "unknown" });
    }
  });
}

export function getJobs(): Promise<PgBoss> {
  if (!globalForJobs.appJobs) {
    globalForJobs.appJobs = (async () => {
      const handle = await getDatabase();
      // The embedded database opens with its tables only (lib/database/app-database.ts): its job schema and queues
      // are this engine's to install, before anything is sent. Every sender comes through here first.
      if (handle.kind === "embedded") await migrateJobs(handle);
      if (!runsInlineWorker()) return startBoss(handle);
      const worker = await startWorker(handle, { schedule: true });
      log.info("job worker running inside the app", { component: "jobs", database: handle.kind });
      return worker.boss;
    })().catch((error: unknown) => {
      globalForJobs.appJobs = undefined;
      throw error;
    });
  }
  return globalForJobs.appJobs;
}
