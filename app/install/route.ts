import { NextResponse } from "next/server";
import { startInstallAttempt } from "@/lib/oauth/pkce";
import { authorizeUrl, oauthClientFromEnv } from "@/lib/oauth/token-client";
import { getInstallAttemptCookie } from "@/lib/session";

export const dynamic = "force-dynamic";

/** Starts an install: a fresh PKCE verifier and state, sealed in the short-lived attempt cookie, then the consent screen. */
export async function GET() {
  const { attempt, codeChallenge } = await startInstallAttempt();
  const cookie = await getInstallAttemptCookie();
  Object.assign(cookie, attempt);
  await cookie.save();
  const response = NextResponse.redirect(authorizeUrl(oauthClientFromEnv(), { state: attempt.state, codeChallenge }), 302);
  response.headers.set("Cache-Control", "no-store");
  return response;
}
