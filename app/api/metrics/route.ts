import { getDatabase, getDb, isDatabaseOpening } from "@/lib/database/app-database";
import { env } from "@/lib/env";
import { getJobs } from "@/lib/jobs/app";
import { log } from "@/lib/log";
import { registerScrapeCollectors } from "@/lib/observability/collectors";
import { METRICS_CONTENT_TYPE, renderMetrics } from "@/lib/observability/registry";
import { cronAuthorized } from "@/lib/sync/cron-auth";

/**
 * This process's metrics in the Prometheus text format, for a scraper sending
 *   GET /api/metrics  with  Authorization: Bearer ${METRICS_SECRET}
 * Off (404) when METRICS_SECRET is unset. Each instance answers with its own counters: scrape every instance.
 */
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const headers = { "cache-control": "no-store" };

export async function GET(request: Request): Promise<Response> {
  if (!env.METRICS_SECRET) return Response.json({ error: "not_found" }, { status: 404, headers });
  // The same constant-time bearer check as the cron route.
  if (!cronAuthorized(request.headers.get("authorization"), env.METRICS_SECRET)) {
    return Response.json({ error: "unauthorized" }, { status: 401, headers: { ...headers, "www-authenticate": "Bearer" } });
  }
  registerScrapeCollectors({ database: getDatabase, db: getDb, isOpening: isDatabaseOpening, jobs: getJobs });
  const body = await renderMetrics({
    onCollectorError: (collector, error) => log.warn("metrics collector failed", { collector, error }),
  });
  return new Response(body, { status: 200, headers: { ...headers, "content-type": METRICS_CONTENT_TYPE } });
}
