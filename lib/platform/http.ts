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
 * The request core: every call to the REST API goes through `send`. It refuses closed endpoints and foreign hosts
 * locally, paces each attempt through the shared budget, retries what can succeed later with the same
 * Idempotency-Key and the same body bytes, records what the platform says about the install, and logs one line.
 */

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
  const signal = AbortSignal.timeout(transport.timeoutMs);
  try {
    const response = await transport.fetch(url, { ...init, signal, redirect: "manual" });
    return { answer: { status: response.status, headers: response.headers, bodyText: await response.text() } };
  } catch (error) {
    return { failure: networkError(error, signal.aborted, 1) };
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
        "User-Agent": transport.userAgent,
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
