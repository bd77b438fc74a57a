import { getDatabase } from "@/lib/database/app-database";
import { env } from "@/lib/env";
import { continueInCronRoute, drainAfterResponse, getJobs, runsInlineWorker, worksAfterRequests } from "@/lib/jobs/app";
import { AFTER_RESPONSE_HAND_BACK_MS, AFTER_RESPONSE_WORK_MS, CONTINUE_HEADER, drainOnce, HOP_HEADER, MAX_HOPS } from "@/lib/jobs/request-driven";
import { sendDueWork } from "@/lib/jobs/runtime";
import { queueStats } from "@/lib/jobs/stats";
import { log } from "@/lib/log";
import { cronAuthorized } from "@/lib/sync/cron-auth";

/**
 * For hosts without a long-running worker (Vercel): a scheduler calls this (once a minute on a paid plan, once a
 * day on Vercel's Hobby plan) with `Authorization: Bearer ${CRON_SECRET}`. It works the job queue until WORK_MS,
 * under the host's 60 s limit, and answers what it did. Off (404) when CRON_SECRET is unset. Where the app's
 * process already runs a worker, it only sends what is due and reports the queue. With JOBS_WORKER=requests, the
 * app itself calls it with CONTINUE_HEADER (a page view's ask, or a drain's hand-on) to drain in a fresh
 * invocation: it answers 202 at once and drains after the answer (lib/jobs/request-driven.ts). Every drain holds
 * the drain lease, so at most one works the queue at a time, and counts its deadline from this route's start.
 */
export const runtime = "nodejs";
export const dynamic = "force-dynamic";
export const maxDuration = 60;


const headers = { "cache-control": "no-store" };

export async function POST(request: Request): Promise<Response> {
  const startedAt = Date.now();
  if (!env.CRON_SECRET) return Response.json({ error: "not_found" }, { status: 404, headers });
  if (!cronAuthorized(request.headers.get("authorization"), env.CRON_SECRET)) {
    return Response.json({ error: "unauthorized" }, { status: 401, headers: { ...headers, "www-authenticate": "Bearer" } });
  }
  if (request.headers.has(CONTINUE_HEADER) && worksAfterRequests()) {
    const hop = Number.parseInt(request.headers.get(HOP_HEADER) ?? "0", 10);
    drainAfterResponse(startedAt, Number.isSafeInteger(hop) && hop >= 0 ? Math.min(hop, MAX_HOPS) : MAX_HOPS);
    return Response.json({ ok: true, worker: "after this answer" }, { status: 202, headers });
  }
  try {
    if (runsInlineWorker()) {
      const jobs = await getJobs();
      await sendDueWork(jobs);
      return Response.json({ ok: true, worker: "inline", left: await queueStats(jobs) }, { headers });
    }
    const report = await drainOnce(await getDatabase(), {
      startedAt,
      deadlineMs: AFTER_RESPONSE_WORK_MS,
      handBackMs: AFTER_RESPONSE_HAND_BACK_MS,
      sendDue: true,
      // Only where drains alone work the queue: with JOBS_WORKER=off, `npm run worker` may run a job right now.
      takeBack: worksAfterRequests(),
      // A call on a plan without frequent crons may leave an import mid-way: a fresh invocation carries it on.
      continueElsewhere: worksAfterRequests() ? continueInCronRoute : undefined,
      logger: log.with({ component: "jobs" }),
    });
    // Another drain holds the lease: this minute's polls and the day's purge are still sent, for it to work.
    if (report.skipped) await sendDueWork(await getJobs());
    return Response.json({ ok: true, worker: report.skipped ? "another drain" : "this call", ...report }, { headers });
  } catch (error) {
    log.error("cron job run failed", { error: error instanceof Error ? error.message : "unknown" });
    return Response.json({ ok: false, error: "jobs_failed" }, { status: 503, headers });
  }
}

/** Some hosted schedulers (Vercel Cron) can only send GET; same check, same work. */
export const GET = POST;
