import "server-only";
import type { PlatformError } from "./errors";

/**
 * When a failed attempt is tried again. Retries are safe for writes only because every attempt of one call carries
 * the same Idempotency-Key (the request core guarantees it); this module only decides whether and when.
 */
export type RetryPolicy = {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** First backoff for 5xx and network failures; doubles each attempt. */
  baseDelayMs: number;
  /** Cap of one backoff wait. */
  maxDelayMs: number;
  /** No retry starts if its wait would end later than this after the first attempt started. */
  maxTotalMs: number;
};

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 5,
  baseDelayMs: 300,
  maxDelayMs: 8_000,
  maxTotalMs: 90_000,
};

export type RetryDecision = { retry: true; delayMs: number } | { retry: false; reason: string };

/**
 * `Retry-After` as the platform sends it: delta-seconds (the documented unit). An HTTP-date is accepted too, since
 * proxies in front of a platform sometimes rewrite it. Returns milliseconds, or null when absent or unreadable.
 */
export function parseRetryAfter(header: string | null | undefined, nowMs: number): number | null {
  if (header === null || header === undefined) return null;
  const value = header.trim();
  if (value === "") return null;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - nowMs);
}

/** Exponential backoff with jitter: half fixed, half random, so instances retrying together spread out. */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/**
 * Decides after failed attempt number `attempt` (1-based). 429 waits exactly what the platform asked (header first,
 * then `error.retry_after`); 5xx and no-answer back off; 402 and other 4xx are final, since sending the same request
 * again cannot change the answer.
 */
export function decideRetry(
  error: PlatformError,
  attempt: number,
  elapsedMs: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): RetryDecision {
  if (!error.isRetryable) return { retry: false, reason: "not retryable" };
  if (attempt >= policy.maxAttempts) return { retry: false, reason: "attempts exhausted" };
  const delayMs =
    error.status === 429 && error.retryAfter !== null
      ? Math.ceil(error.retryAfter * 1000)
      : backoffDelay(attempt, policy, random);
  if (elapsedMs + delayMs > policy.maxTotalMs) return { retry: false, reason: "time budget exhausted" };
  return { retry: true, delayMs };
}
