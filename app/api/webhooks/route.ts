import { getDb } from "@/lib/database/app-database";
import { env } from "@/lib/env";
import { getJobs } from "@/lib/jobs/app";
import { webhookFollowUps } from "@/lib/jobs/webhook-follow-ups";
import { log } from "@/lib/log";
import { recordWebhookDelivery } from "@/lib/observability/metrics";
import { acceptOrCreateRequestId } from "@/lib/request-id";
import { receiveWebhook } from "@/lib/webhooks/receive";

/** The app's webhook URL. Thin on purpose: everything is in lib/webhooks/receive.ts, which tests call directly. */
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function POST(request: Request): Promise<Response> {
  const started = performance.now();
  // The request id only names log lines: made when one is written, not for every delivery.
  const logger = log.with(() => ({ requestId: acceptOrCreateRequestId(request.headers.get("x-request-id")) }));
  let db, jobs;
  try {
    [db, jobs] = await Promise.all([getDb(), getJobs()]);
  } catch (error) {
    // No database, no acknowledgement: the platform retries later.
    logger.error("webhook not applied: database unavailable", { error: error instanceof Error ? error.message : "unknown" });
    // Counted like the receiver's own 503s, so the failure-rate alert sees a database that cannot even be opened.
    recordWebhookDelivery("failed", "temporarily_unavailable", (performance.now() - started) / 1000);
    return Response.json({ ok: false, error: "temporarily_unavailable" }, { status: 503, headers: { "cache-control": "no-store" } });
  }
  return receiveWebhook(request, { db, secret: env.SVC_WEBHOOK_SECRET, logger, followUps: webhookFollowUps(jobs) });
}
