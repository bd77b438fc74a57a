import { NextResponse, type NextRequest } from "next/server";
import { getDb } from "@/lib/database/app-database";
import { env } from "@/lib/env";
import { isCrossSiteRequest } from "@/lib/http/cross-site";
import { log } from "@/lib/log";
import { failurePath } from "@/lib/oauth/failure-reasons";
import { budgetConfig, budgetedClient, installHold, withReturning } from "@/lib/oauth/install-budget";
import { addAttempt, liveAttempts } from "@/lib/oauth/install-attempts";
import { startInstallAttempt } from "@/lib/oauth/pkce";
import { safeReturnPath } from "@/lib/oauth/return-path";
import { authorizeUrl, oauthClientFromEnv } from "@/lib/oauth/token-client";
import { browserReturningProof, getInstallAttemptCookie } from "@/lib/session";

export const dynamic = "force-dynamic";

function noStore(response: NextResponse): NextResponse {
  response.headers.set("Cache-Control", "no-store");
  return response;
}

/**
 * Starts an install, or a sign-in (the same consent): a fresh PKCE verifier and state, kept in the sealed attempts
 * cookie beside any attempt already in progress, then the consent screen. `?return_to=` names the store page to
 * open afterwards.
 */
export async function GET(request: NextRequest) {
  const now = Date.now();
  const held = await getDb()
    .then(async (db) => installHold(db, { client: withReturning(budgetedClient(request.headers, budgetConfig(env)), await browserReturningProof(db)) }))
    .catch((error: unknown) => {
      // The budgets guard the token endpoint, which the callback guards again; a database outage shows up there.
      log.warn("install: budgets unavailable", { error });
      return null;
    });
  if (held) {
    const waiting = noStore(NextResponse.redirect(`${env.APP_URL}${failurePath(held.reason, held.minutes)}`, 303));
    // The page says the minutes; clients that read headers get the same wait.
    waiting.headers.set("Retry-After", String(held.minutes * 60));
    return waiting;
  }
  const { attempt, codeChallenge } = await startInstallAttempt(now);
  const returnTo = safeReturnPath(request.nextUrl.searchParams.get("return_to"));
  const cookie = await getInstallAttemptCookie();
  const crossSite = isCrossSiteRequest(request.headers, new URL(env.APP_URL).origin);
  const result = addAttempt(liveAttempts(cookie.attempts, now), { ...attempt, returnTo }, crossSite);
  // Another site sent the browser here while every slot holds an attempt in progress: keep them all, and let the
  // merchant start from the app's own page.
  if (!result.added) return noStore(NextResponse.redirect(`${env.APP_URL}/`, 303));
  cookie.attempts = result.attempts;
  await cookie.save();
  return noStore(NextResponse.redirect(authorizeUrl(oauthClientFromEnv(), { state: attempt.state, codeChallenge }), 302));
}
