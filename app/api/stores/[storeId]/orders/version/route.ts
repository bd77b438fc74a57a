import type { NextRequest } from "next/server";
import { getDb } from "@/lib/database/app-database";
import { isDatabaseUnavailable } from "@/lib/database-unavailable";
import { checkOrdersPage } from "@/lib/orders/live";
import { requestLog } from "@/lib/request-id";
import { currentSession } from "@/lib/session";

export const dynamic = "force-dynamic";
/** Work runs after the answer (the session's bookkeeping, lib/session.ts): a ceiling the host enforces, counted from the request's start. */
export const maxDuration = 60;

const NO_STORE = { "Cache-Control": "no-store" };

/**
 * An open orders page asks here every few seconds whether it changed (lib/orders/live.ts), with its own filters
 * and the version it was rendered at (`?v=`): 204 when a reload would show the same page, 200 with the new version
 * when not. Anything but 204 makes the page render itself again, which then says what a reload would (a 404 for a
 * store no longer in the session, the database's unavailability).
 */
export async function GET(request: NextRequest, { params }: { params: Promise<{ storeId: string }> }): Promise<Response> {
  const { storeId } = await params;
  const query = request.nextUrl.searchParams;
  try {
    const check = await checkOrdersPage(await getDb(), await currentSession(), storeId, Object.fromEntries(query), query.get("v"));
    if (check.outcome === "unchanged") return new Response(null, { status: 204, headers: NO_STORE });
    if (check.outcome === "changed") return Response.json({ version: check.version }, { headers: NO_STORE });
    return Response.json(
      { error: "not_found", message: "No orders page of a store in this browser's session answers here: reload the page." },
      { status: 404, headers: NO_STORE },
    );
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
    (await requestLog({ storeId })).warn("orders probe: database unavailable", { error });
    return Response.json(
      { error: "database_unavailable", message: "The app's database is not answering: try again in a few seconds." },
      { status: 503, headers: { ...NO_STORE, "Retry-After": "5" } },
    );
  }
}
