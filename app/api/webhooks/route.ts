import { getDb } from "@/db/index";
import { env } from "@/lib/env";
import { getJobs } from "@/lib/jobs/app";
import { webhookFollowUps } from "@/lib/jobs/webhook-follow-ups";
import { log } from "@/lib/log";
import { acceptOrCreateRequestId } from "@/lib/request-id";
import { receiveWebhook } from "@/lib/webhooks/receive";

/** The app's webhook URL. Thin on purpose: everything is in lib/webhooks/receive.ts, which tests call directly. */
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function POST(request: Request): Promise<Response> {
  const logger = log.with({ requestId: acceptOrCreateRequestId(request.headers.get("x-request-id")) });
  let db, jobs;
  try {
    [db, jobs] = await Promise.all([getDb(), getJobs()]);
  } catch (error) {
    // No database, no acknowledgement: the platform retries later.
    logger.error("webhook not applied: database unavailable", { error: error instanceof Error ? error.message : "unknown" });
    return Response.json({ ok: false, error: "temporarily_unavailable" }, { status: 503, headers: { "cache-control": "no-store" } });
  }
  return receiveWebhook(request, { db, secret: env.SVC_WEBHOOK_SECRET, logger, followUps: webhookFollowUps(jobs) });
}
