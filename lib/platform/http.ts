import "server-only";
import { randomBytes } from "node:crypto";
import type { Logger } from "@/lib/log";
import { observeFailedAttempt, observePacing, observePlatformCallEnd, observeRetryWait } from "@/lib/observability/platform";
import { assertOpenEndpoint } from "./closed-endpoints";
import type { CredentialSource } from "./credentials";
import { readError, readSuccess, type RawAnswer, type Success } from "./envelope";
import { PlatformError } from "./errors";
import { assertIdempotencyKey, newIdempotencyKey } from "./idempotency";
import type { Pacer } from "./pacing";
import { decideRetry, type RetryPolicy } from "./retry";

/**
 * The request core. Every request to the platform leaves through `platformFetch`: the store client's calls, the
 * token exchange and the doctor's probes, so all send the same User-Agent, never follow a redirect and give up
 * after a timeout. Every call to the REST API goes through `send`, which also refuses closed endpoints and foreign
 * hosts locally, paces each attempt through the shared budget, retries what can succeed later with the same
 * Idempotency-Key and the same body bytes, records what the platform says about the install, and logs one line.
 */

/** Sent on every request: without one the platform's gateway answers 403 with an HTML challenge. */
export const APP_USER_AGENT = "store-app-starter/0.1 (+https://github.com/store-app-starter)";

/** Per attempt, for background work (webhooks, order sync, scripts) and the token exchange. */
export const DEFAULT_TIMEOUT_MS = 15_000;
/** Per attempt, when someone is waiting on the answer (a page, a form, the doctor). */
export const INTERACTIVE_TIMEOUT_MS = 10_000;

/** What every request to the platform shares; each part has the app's default. `fetch` is injected by tests. */
export type Wire = { fetch?: typeof fetch; userAgent?: string; timeoutMs?: number };

/**
 * One request on the wire, nothing more: no retry, no token. A redirect is returned as it is, never followed (a
 * token, a code or a secret must reach the host it was meant for). Throws PlatformError kind "network" (code
 * `timeout` or `network_error`, the fetch failure as its cause) when no answer arrives.
 */
export async function platformFetch(
  url: string | URL,
  init: { method: HttpMethod; headers?: Record<string, string>; body?: string | URLSearchParams },
  wire: Wire = {},
): Promise<Response> {
  const signal = AbortSignal.timeout(wire.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  try {
    return await (wire.fetch ?? fetch)(url, {
      // With tracing on, the fetch span (@vercel/otel) is named and addressed without the query string: a search
      // or a filter may carry a customer's data, and traces often go to a third party.
      opentelemetry: traced(init.method, url),
      method: init.method,
      headers: { ...init.headers, "User-Agent": wire.userAgent ?? APP_USER_AGENT },
      body: init.body,
      signal,
      redirect: "manual",
      cache: "no-store",
    });
  } catch (error) {
    throw networkError(error, signal.aborted, 1);
  }
}

function traced(method: HttpMethod, url: string | URL): RequestInit["opentelemetry"] {
  const { origin, pathname } = new URL(url);
  return { spanName: `fetch ${method} ${origin}${pathname}`, attributes: { "http.url": `${origin}${pathname}` } };
}

export type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

export type QueryValue = string | number | boolean | Date | null | undefined;

export type RequestOptions = {
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** For POST, PATCH and DELETE: reuse a key to make a repeated submission replay (a fresh key is made otherwise). */
  idempotencyKey?: string;
};

export type PlatformResponse<T = unknown> = {
  status: number;
  data: T;
  /** The platform's request id (meta.request_id): quote it when reporting a call. */
  requestId: string | null;
  /** The platform answered from its idempotency store (`Idempotency-Replay: 1`). */
  replayed: boolean;
  attempts: number;
  idempotencyKey: string | null;
};

export type Transport = {
  storeId: number;
  baseUrl: string;
  fetch: typeof fetch;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  pacer: Pacer;
  credentials: CredentialSource;
  retry: RetryPolicy;
  /** Per attempt; a timed-out attempt is retried like a dropped connection. */
  timeoutMs: number;
  userAgent: string;
  instanceId: string;
  log: Logger;
};

const WRITE_METHODS = new Set<HttpMethod>(["POST", "PATCH", "DELETE"]);

export function buildUrl(baseUrl: string, path: string, query: Record<string, QueryValue> = {}): URL {
  // Only a path on the platform's host: a full URL here would send the store's token to someone else.
  if (!path.startsWith("/v1/") && path !== "/v1") {
    throw new PlatformError({
      kind: "local",
      status: null,
      code: "invalid_input",
      message: `Platform paths start with /v1/ (got ${JSON.stringify(path.slice(0, 80))}).`,
    });
  }
  const base = new URL(baseUrl);
  const url = new URL(base.pathname.replace(/\/+$/, "") + path, base.origin);
  if (url.origin !== base.origin) {
    throw new PlatformError({ kind: "local", status: null, code: "invalid_input", message: "Platform path leaves the API host." });
  }
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    url.searchParams.set(name, value instanceof Date ? value.toISOString() : String(value));
  }
  return url;
}

function networkError(error: unknown, timedOut: boolean, attempts: number): PlatformError {
  return new PlatformError({
    kind: "network",
    status: null,
    code: timedOut ? "timeout" : "network_error",
    message: timedOut
      ? "The platform did not answer in time."
      : "The connection to the platform failed before an answer arrived.",
    attempts,
    cause: error,
  });
}

function withAttempts(error: PlatformError, attempts: number): PlatformError {
  if (error.attempts === attempts) return error;
  return new PlatformError({
    kind: error.kind,
    status: error.status,
    code: error.code,
    message: error.message,
    requestId: error.requestId,
    retryAfter: error.retryAfter,
    fieldErrors: error.fieldErrors,
    attempts,
    cause: error.cause,
  });
}

/** One attempt on the wire. A refused, dropped or timed-out connection is a failure, never an exception. */
async function exchange(
  transport: Transport,
  url: URL,
  init: { method: HttpMethod; headers: Record<string, string>; body: string | undefined },
): Promise<{ answer: RawAnswer } | { failure: PlatformError }> {
  try {
    const response = await platformFetch(url, init, transport);
    return { answer: { status: response.status, headers: response.headers, bodyText: await response.text() } };
  } catch (error) {
    if (error instanceof PlatformError) return { failure: error };
    // The body failed after the headers arrived; the timeout's signal is the only thing that aborts it.
    const aborted = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    return { failure: networkError(error, aborted, 1) };
  }
}

function safeId(value: string): string {
  return value.replace(/[^A-Za-z0-9_.:-]/g, "").slice(0, 40) || "app";
}

export async function send(
  transport: Transport,
  method: HttpMethod,
  path: string,
  options: RequestOptions = {},
): Promise<PlatformResponse> {
  assertOpenEndpoint(method, path);
  const url = buildUrl(transport.baseUrl, path, options.query);
  const idempotencyKey =
    options.idempotencyKey !== undefined
      ? assertIdempotencyKey(options.idempotencyKey)
      : WRITE_METHODS.has(method)
        ? newIdempotencyKey()
        : null;
  // Serialised once: a retry must send the very same bytes, or the platform answers idempotency_key_reuse.
  const bodyText = options.body === undefined ? undefined : JSON.stringify(options.body);
  const callId = `${safeId(transport.instanceId)}-${randomBytes(6).toString("hex")}`;
  const startedAt = transport.now();
  let attempts = 0;
  let waitedMs = 0;
  let installId: number | null = null;
  let outcome: { status: number | null; requestId: string | null; code?: string; replayed?: boolean } = {
    status: null,
    requestId: null,
  };

  try {
    const credentials = await transport.credentials.get();
    installId = credentials.installId;
    for (;;) {
      attempts += 1;
      waitedMs += await observePacing(() => transport.pacer.acquire(credentials.installId, transport.storeId));
      const headers: Record<string, string> = {
        Accept: "application/json",
        Authorization: `Bearer ${credentials.token}`,
        "X-Request-Id": `${callId}.${attempts}`,
      };
      if (bodyText !== undefined) headers["Content-Type"] = "application/json";
      if (idempotencyKey) headers["Idempotency-Key"] = idempotencyKey;

      const attempt = await exchange(transport, url, { method, headers, body: bodyText });
      if ("answer" in attempt && attempt.answer.status >= 200 && attempt.answer.status < 300) {
        let success: Success;
        try {
          success = readSuccess(attempt.answer);
        } catch (error) {
          throw error instanceof PlatformError ? withAttempts(error, attempts) : error;
        }
        outcome = { status: attempt.answer.status, requestId: success.requestId, replayed: success.replayed };
        await transport.credentials.succeeded();
        return { status: attempt.answer.status, ...success, attempts, idempotencyKey };
      }
      const failure = "answer" in attempt ? readError(attempt.answer, transport.now()) : attempt.failure;
      outcome = { status: failure.status, requestId: failure.requestId, code: failure.code };
      observeFailedAttempt(failure.status);

      if (failure.status === 401) await transport.credentials.revoked();
      const stateCode = failure.status === 403 ? failure.installStateCode : null;
      if (stateCode) await transport.credentials.stateRefused(stateCode);
      if (failure.code === "rate_limited") {
        await transport.pacer.onRateLimited(
          credentials.installId,
          failure.retryAfter === null ? null : failure.retryAfter * 1000,
        );
      }

      const decision = decideRetry(failure, attempts, transport.now() - startedAt, transport.retry, transport.random);
      if (!decision.retry) throw withAttempts(failure, attempts);
      waitedMs += decision.delayMs;
      await observeRetryWait(decision.delayMs, () => transport.sleep(decision.delayMs));
    }
  } catch (error) {
    if (error instanceof PlatformError && outcome.code === undefined && outcome.status === null) {
      outcome = { status: error.status, requestId: error.requestId, code: error.code };
    }
    throw error;
  } finally {
    const fields = {
      requestId: outcome.requestId,
      storeId: transport.storeId,
      installId,
      method,
      path: url.pathname,
      status: outcome.status,
      errorCode: outcome.code,
      replayed: outcome.replayed || undefined,
      attempts,
      waitedMs: waitedMs || undefined,
      durationMs: Math.round(transport.now() - startedAt),
    };
    observePlatformCallEnd({ method, path: url.pathname, status: outcome.status, code: outcome.code, attempts, waitedMs, durationMs: fields.durationMs });
    if (outcome.code === undefined) transport.log.info("platform call", fields);
    else transport.log.warn("platform call failed", fields);
  }
}
