import { NextResponse, type NextRequest } from "next/server";
import { getTranslations } from "next-intl/server";
import { getDb } from "@/lib/database/app-database";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { currentSessionId, endSessionsHoldingStore } from "@/lib/session";
import { resolveStoreAccess } from "@/lib/tenancy";

export const dynamic = "force-dynamic";
/** Work runs after the answer (the session's bookkeeping, lib/session.ts): a ceiling the host enforces, counted from the request's start. */
export const maxDuration = 60;

/**
 * Sign out everywhere for one store (form field `storeId`): every session that holds the store ends, on every
 * device. Only a session that holds the store may ask; anything else gets the same 404 as a store page. A press
 * without `confirmed=1` ends nothing: it is sent to the question first (app/signout/everywhere/confirm).
 * Cross-site posts never reach here (proxy.ts).
 */
export async function POST(request: NextRequest) {
  const form = await request.formData().catch(() => null);
  const storeIdField = form?.get("storeId");
  const db = await getDb();
  const access = await resolveStoreAccess(
    db,
    await currentSessionId(),
    typeof storeIdField === "string" ? storeIdField : "",
    new Date(),
  );
  if (!access.ok) {
    return new NextResponse((await getTranslations())("NotFound.noSessionForStore"), {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  if (form?.get("confirmed") !== "1") {
    const confirm = NextResponse.redirect(`${env.APP_URL}/signout/everywhere/confirm?storeId=${access.storeId}`, 303);
    confirm.headers.set("Cache-Control", "no-store");
    return confirm;
  }
  const ended = await endSessionsHoldingStore(db, access.storeId);
  log.info("signed out everywhere", { storeId: access.storeId, sessionsEnded: ended });
  const response = NextResponse.redirect(`${env.APP_URL}/?signed_out=everywhere`, 303);
  response.headers.set("Cache-Control", "no-store");
  return response;
}
