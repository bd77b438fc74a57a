import { describe, expect, it } from "vitest";
import { PlatformError } from "@/lib/platform";
import { backoffDelay, decideRetry, DEFAULT_RETRY_POLICY, parseRetryAfter } from "@/lib/platform/retry";

const apiError = (status: number, code: string, retryAfter: number | null = null) =>
  new PlatformError({ kind: "api", status, code, message: code, retryAfter });

describe("parseRetryAfter", () => {
  it("reads delta-seconds as seconds, returning milliseconds", () => {
    expect(parseRetryAfter("2", 0)).toBe(2_000);
    expect(parseRetryAfter("37", 0)).toBe(37_000);
    expect(parseRetryAfter(" 1.5 ", 0)).toBe(1_500);
  });

  it("reads an HTTP-date relative to now", () => {
    const now = Date.parse("2025-03-01T10:00:00Z");
    expect(parseRetryAfter("Sat, 01 Mar 2025 10:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("Sat, 01 Mar 2025 09:59:00 GMT", now)).toBe(0);
  });

  it("returns null for absent or unreadable values", () => {
    expect(parseRetryAfter(null, 0)).toBeNull();
    expect(parseRetryAfter("", 0)).toBeNull();
    expect(parseRetryAfter("soon", 0)).toBeNull();
  });
});

describe("decideRetry", () => {
  const policy = DEFAULT_RETRY_POLICY;

  it("waits exactly Retry-After seconds after a 429", () => {
    expect(decideRetry(apiError(429, "rate_limited", 2), 1, 0, policy)).toEqual({ retry: true, delayMs: 2_000 });
    expect(decideRetry(apiError(429, "too_many_concurrent", 5), 1, 0, policy)).toEqual({ retry: true, delayMs: 5_000 });
  });

  it("backs off on 5xx, 502 and no answer", () => {
    for (const error of [
      apiError(500, "server_error"),
      apiError(502, "server_error"),
      apiError(503, "server_error"),
      new PlatformError({ kind: "network", status: null, code: "timeout", message: "t" }),
    ]) {
      const decision = decideRetry(error, 1, 0, policy, () => 0.5);
      expect(decision.retry).toBe(true);
    }
  });

  it("never retries 402 or a 4xx other than 429", () => {
    for (const [status, code] of [
      [400, "bad_request"],
      [401, "unauthorized"],
      [402, "no_credit"],
      [402, "quota_exceeded"],
      [403, "app_suspended"],
      [404, "not_found"],
      [409, "category_not_empty"],
      [422, "validation_error"],
      [422, "idempotency_key_reuse"],
    ] as const) {
      expect(decideRetry(apiError(status, code), 1, 0, policy).retry).toBe(false);
    }
  });

  it("stops after maxAttempts", () => {
    const error = apiError(502, "server_error");
    expect(decideRetry(error, policy.maxAttempts - 1, 0, policy).retry).toBe(true);
    expect(decideRetry(error, policy.maxAttempts, 0, policy)).toEqual({ retry: false, reason: "attempts exhausted" });
  });

  it("does not start a wait that would end past the total time budget", () => {
    const tight = { ...policy, maxTotalMs: 10_000 };
    expect(decideRetry(apiError(429, "rate_limited", 30), 1, 0, tight)).toEqual({ retry: false, reason: "time budget exhausted" });
    expect(decideRetry(apiError(500, "server_error"), 1, 9_999, tight).retry).toBe(false);
  });
});

describe("backoffDelay", () => {
  it("grows exponentially, stays between half and all of its ceiling, and is capped", () => {
    const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 1_000 };
    expect(backoffDelay(1, policy, () => 0)).toBe(50);
    expect(backoffDelay(1, policy, () => 1)).toBe(100);
    expect(backoffDelay(3, policy, () => 0)).toBe(200);
    expect(backoffDelay(3, policy, () => 1)).toBe(400);
    expect(backoffDelay(10, policy, () => 1)).toBe(1_000);
    expect(backoffDelay(10, policy, () => 0)).toBe(500);
  });

  it("spreads instances that fail together", () => {
    const values = new Set(Array.from({ length: 20 }, () => backoffDelay(2, DEFAULT_RETRY_POLICY)));
    expect(values.size).toBeGreaterThan(1);
  });
});
