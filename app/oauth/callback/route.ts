import { NextResponse, type NextRequest } from "next/server";
import { getDb } from "@/lib/database/app-database";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { getJobs, workJobsAfterResponse } from "@/lib/jobs/app";
import { completeInstall } from "@/lib/oauth/complete-install";
import { failurePath } from "@/lib/oauth/failure-reasons";
import { budgetConfig, budgetedClient, minutesToWait, withReturning } from "@/lib/oauth/install-budget";
import { liveAttempts, takeAttempt } from "@/lib/oauth/install-attempts";
import { landingAfterInstall } from "@/lib/oauth/return-path";
import { oauthClientFromEnv } from "@/lib/oauth/token-client";
import { browserReturningProof, getInstallAttemptCookie, rememberInstalledStores, startSession } from "@/lib/session";

export const dynamic = "force-dynamic";
/** The answer is quick; the order import worked after it (JOBS_WORKER=requests) needs the function's 60 s. */
export const maxDuration = 60;

function redirectTo(path: string): NextResponse {
  // APP_URL, not the request's host: behind a proxy the request may carry an internal address.
  const response = NextResponse.redirect(`${env.APP_URL}${path}`, 303);
  response.headers.set("Cache-Control", "no-store");
  return response;
}

/** The redirect URI: read the answer, let completeInstall check and store it, then send the browser on. */
export async function GET(request: NextRequest) {
  const attemptCookie = await getInstallAttemptCookie();
  const { attempt, matched, rest } = takeAttempt(
    liveAttempts(attemptCookie.attempts, Date.now()),
    request.nextUrl.searchParams.get("state"),
  );
  // The attempt this answer carries is single use, whatever the outcome: a replayed callback finds it gone. An
  // answer carrying no attempt's state (a forged or stale link) spends none of the others.
  if (matched && rest.length === 0) attemptCookie.destroy();
  else if (matched) {
    attemptCookie.attempts = rest;
    await attemptCookie.save();
  }

  const ready = await Promise.all([getDb(), getJobs()]).catch((error: unknown) => {
    log.error("install callback: database unavailable", { error });
    return null;
  });
  if (!ready) return redirectTo("/install/failed?reason=store_failed");
  const [db, jobs] = ready;

  const outcome = await completeInstall(db, {
    params: request.nextUrl.searchParams,
    attempt,
    client: oauthClientFromEnv(),
    jobs,
    admission: { client: withReturning(budgetedClient(request.headers, budgetConfig(env)), await browserReturningProof(db)) },
  });
  if (!outcome.ok) {
    const wait = outcome.retryAfterMs === undefined ? undefined : minutesToWait(outcome.retryAfterMs);
    const response = redirectTo(failurePath(outcome.reason, wait));
    // The page says the minutes; clients that read headers get the same wait.
    if (wait !== undefined) response.headers.set("Retry-After", String(wait * 60));
    return response;
  }

  const storeIds = outcome.installs.map((install) => install.storeId);
  // Each store's import was enqueued with its install: on a host without a worker, it starts after this answer.
  workJobsAfterResponse();
  // This browser's proof that it installed before: next time it is admitted ahead of the per-network budgets.
  await rememberInstalledStores(storeIds).catch((error: unknown) => log.warn("install callback: proof cookie not set", { error }));
  try {
    await startSession(db, storeIds);
  } catch (error) {
    // The stores are installed; only this browser's session is missing. Signing in again opens them.
    log.error("install callback: session could not be opened", { error });
    return redirectTo("/install/failed?reason=store_failed");
  }

  return redirectTo(landingAfterInstall(matched ? (attempt?.returnTo ?? null) : null, storeIds));
}
