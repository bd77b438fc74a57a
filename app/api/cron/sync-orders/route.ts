import { getDb } from "@/db/index";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { cronAuthorized } from "@/lib/sync/cron-auth";
import { syncAllStores, syncStoreOrders } from "@/lib/sync/orders-sync";

/**
 * One polling pass over every store, for a scheduler calling once a minute:
 *   POST /api/cron/sync-orders  with  Authorization: Bearer ${CRON_SECRET}
 * Optional query: `store=<id>` syncs one store now, `full=1` ignores the high-water mark (a full backfill).
 * Off (404) when CRON_SECRET is unset. Stores synced in the last 50 s and stores another instance is syncing are
 * skipped, so several schedulers or instances do not multiply the calls.
 */
export const runtime = "nodejs";
export const dynamic = "force-dynamic";
export const maxDuration = 60;

const headers = { "cache-control": "no-store" };

export async function POST(request: Request): Promise<Response> {
  if (!env.CRON_SECRET) return Response.json({ error: "not_found" }, { status: 404, headers });
  if (!cronAuthorized(request.headers.get("authorization"), env.CRON_SECRET)) {
    return Response.json({ error: "unauthorized" }, { status: 401, headers: { ...headers, "www-authenticate": "Bearer" } });
  }
  const query = new URL(request.url).searchParams;
  const store = query.get("store");
  const full = query.get("full") === "1";
  if (store !== null && !/^[1-9]\d{0,9}$/.test(store)) {
    return Response.json({ error: "invalid_store" }, { status: 400, headers });
  }
  try {
    const db = await getDb();
    const results = store ? [await syncStoreOrders(db, Number(store), { full })] : await syncAllStores(db, { full });
    const failed = results.filter((result) => result.outcome === "failed").length;
    return Response.json({ ok: failed === 0, stores: results }, { status: 200, headers });
  } catch (error) {
    log.error("order sync pass failed", { error: error instanceof Error ? error.message : "unknown" });
    return Response.json({ ok: false, error: "sync_failed" }, { status: 503, headers });
  }
}

/** Some hosted schedulers (Vercel Cron) can only send GET; same check, same pass. */
export const GET = POST;
