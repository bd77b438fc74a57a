import { getDatabase } from "@/lib/database/app-database";
import { env } from "@/lib/env";
import { continueInCronRoute, getJobs, runsInlineWorker, workJobsAfterResponse, worksAfterRequests } from "@/lib/jobs/app";
import { workUntil } from "@/lib/jobs/drain";
import { CONTINUE_HEADER } from "@/lib/jobs/request-driven";
import { sendDueWork } from "@/lib/jobs/runtime";
import { queueStats } from "@/lib/jobs/stats";
import { log } from "@/lib/log";
import { cronAuthorized } from "@/lib/sync/cron-auth";

/**
 * For hosts without a long-running worker (Vercel): a scheduler calls this (once a minute on a paid plan, once a
 * day on Vercel's Hobby plan) with `Authorization: Bearer ${CRON_SECRET}`. It works the job queue until WORK_MS,
 * under the host's 60 s limit, and answers what it did. Off (404) when CRON_SECRET is unset. Where the app's
 * process already runs a worker, it only sends what is due and reports the queue. With JOBS_WORKER=requests, the
 * app itself calls it with CONTINUE_HEADER to carry a long import on in a fresh invocation: it answers 202 at once
 * and works after the answer (lib/jobs/request-driven.ts).
 */
export const runtime = "nodejs";
export const dynamic = "force-dynamic";
export const maxDuration = 60;

/** Work for 40 s, then up to 10 s to hand back what still runs: done before the 60 s limit. */
const WORK_MS = 40_000;
const HAND_BACK_MS = 10_000;

const headers = { "cache-control": "no-store" };

export async function POST(request: Request): Promise<Response> {
  if (!env.CRON_SECRET) return Response.json({ error: "not_found" }, { status: 404, headers });
  if (!cronAuthorized(request.headers.get("authorization"), env.CRON_SECRET)) {
    return Response.json({ error: "unauthorized" }, { status: 401, headers: { ...headers, "www-authenticate": "Bearer" } });
  }
  if (request.headers.has(CONTINUE_HEADER) && worksAfterRequests()) {
    workJobsAfterResponse();
    return Response.json({ ok: true, worker: "after this answer" }, { status: 202, headers });
  }
  try {
    if (runsInlineWorker()) {
      const jobs = await getJobs();
      await sendDueWork(jobs);
      return Response.json({ ok: true, worker: "inline", left: await queueStats(jobs) }, { headers });
    }
    const report = await workUntil(await getDatabase(), { deadlineMs: WORK_MS, handBackMs: HAND_BACK_MS });
    // The daily call on a plan without frequent crons may leave an import mid-way: a fresh invocation carries it on.
    if (report.ready > 0 && worksAfterRequests()) await continueInCronRoute().catch(() => undefined);
    return Response.json({ ok: true, worker: "this call", ...report }, { headers });
  } catch (error) {
    log.error("cron job run failed", { error: error instanceof Error ? error.message : "unknown" });
    return Response.json({ ok: false, error: "jobs_failed" }, { status: 503, headers });
  }
}

/** Some hosted schedulers (Vercel Cron) can only send GET; same check, same work. */
export const GET = POST;
