import { operationOf, recordPacingWait, recordPlatformCall, recordRateLimited } from "./metrics";
import { annotateSpan, withSpan } from "./trace";

/** A platform call's span; the request core (lib/platform/http.ts) runs inside it and annotates it at the end. */
export function tracePlatformCall<T>(method: string, path: string, call: () => Promise<T>): Promise<T> {
  return withSpan("platform.call", { "http.request.method": method, "store_app.operation": operationOf(method, path.split("?")[0] ?? path) }, call);
}

/** One attempt's wait for a slot in the per-minute budget: its own span, and the pacing histogram. */
export async function observePacing(acquire: () => Promise<number>): Promise<number> {
  const waitedMs = await withSpan("platform.pacing", {}, async (span) => {
    const waited = await acquire();
    span?.setAttribute("pacing.wait_ms", waited);
    return waited;
  });
  recordPacingWait(waitedMs / 1000);
  return waitedMs;
}

/** A retry's backoff (or the Retry-After a 429 asked for), as a span of its own. */
export function observeRetryWait(delayMs: number, sleep: () => Promise<void>): Promise<void> {
  return withSpan("platform.retry_wait", { "retry.delay_ms": delayMs }, sleep);
}

/** Each failed attempt: a 429 is counted whatever happens next. */
export function observeFailedAttempt(status: number | null): void {
  if (status === 429) recordRateLimited();
}

/** The end of a call, from the request core's own bookkeeping: the counters, and the call's span annotated. */
export function observePlatformCallEnd(call: {
  method: string;
  path: string;
  status: number | null;
  code: string | undefined;
  attempts: number;
  waitedMs: number;
  durationMs: number;
}): void {
  const status = call.status !== null ? String(call.status) : (call.code ?? "none");
  recordPlatformCall({ operation: operationOf(call.method, call.path), status, attempts: call.attempts, seconds: call.durationMs / 1000 });
  annotateSpan({ "http.response.status_code": call.status ?? undefined, "store_app.attempts": call.attempts, "store_app.waited_ms": call.waitedMs, "error.type": call.code });
}
