import { describe, expect, it } from "vitest";
import { fieldErrorsOf, readError, readSuccess } from "@/lib/platform/envelope";
import { PlatformError } from "@/lib/platform";

const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
  status,
  headers: new Headers(headers),
  bodyText: typeof body === "string" ? body : JSON.stringify(body),
});

const envelope = (code: string, message: string, extra: Record<string, unknown> = {}) => ({
  error: { code, message, ...extra },
  meta: { request_id: "req_abc", api_version: "v1" },
});

describe("readError", () => {
  it("carries status, code, message, request id and Retry-After in seconds", () => {
    const error = readError(answer(429, envelope("rate_limited", "Too many", { retry_after: 7 }), { "retry-after": "7" }), 0);
    expect(error).toBeInstanceOf(PlatformError);
    expect(error).toMatchObject({ kind: "api", status: 429, code: "rate_limited", requestId: "req_abc", retryAfter: 7 });
    expect(error.isRateLimited).toBe(true);
    expect(error.isRetryable).toBe(true);
  });

  it("falls back to error.retry_after when the header is absent", () => {
    expect(readError(answer(429, envelope("too_many_concurrent", "Busy", { retry_after: 5 })), 0).retryAfter).toBe(5);
  });

  it("classifies each documented error", () => {
    const cases: [number, string, (error: PlatformError) => boolean][] = [
      [401, "unauthorized", (error) => error.needsReinstall && !error.isRetryable],
      [402, "no_credit", (error) => error.isNoCreditOrQuota && !error.isRetryable],
      [402, "quota_exceeded", (error) => error.isNoCreditOrQuota && error.isPaymentRequired],
      [403, "app_uninstalled", (error) => error.needsReinstall && error.installStateCode === "app_uninstalled"],
      [403, "app_suspended", (error) => error.installStateCode === "app_suspended" && !error.needsReinstall],
      [403, "app_plan_required", (error) => error.installStateCode === "app_plan_required"],
      [403, "app_not_approved", (error) => error.installStateCode === "app_not_approved"],
      [404, "not_found", (error) => error.isNotFound],
      [422, "validation_error", (error) => error.isValidation],
      [422, "invalid_parent", (error) => error.isValidation],
      [500, "server_error", (error) => error.isRetryable],
      [502, "server_error", (error) => error.isRetryable],
    ];
    for (const [status, code, check] of cases) {
      const error = readError(answer(status, envelope(code, "platform says")), 0);
      expect(error.code).toBe(code);
      expect(check(error), `${status} ${code}`).toBe(true);
    }
  });

  it("says what to do for install states instead of echoing the platform", () => {
    expect(readError(answer(403, envelope("app_plan_required", "x")), 0).message).toMatch(/upgrade/);
    expect(readError(answer(403, envelope("app_uninstalled", "x")), 0).message).toMatch(/install it again/);
    expect(readError(answer(401, envelope("unauthorized", "Invalid or revoked API key")), 0).message).toMatch(/install the app again/);
  });

  it("recognises closed endpoints and missing scopes from the platform's messages", () => {
    expect(readError(answer(403, envelope("forbidden", "Apps cannot use this endpoint")), 0).isClosedEndpoint).toBe(true);
    const scope = readError(answer(403, envelope("forbidden", "Missing scope: ai:generate")), 0);
    expect(scope.isMissingScope).toBe(true);
    expect(scope.message).toBe("Missing scope: ai:generate");
  });

  it("keeps field details", () => {
    const error = readError(answer(422, envelope("validation_error", "Invalid", { details: { name: ["is required"] } })), 0);
    expect(error.fieldErrors).toEqual({ name: ["is required"] });
  });

  it("turns an unreadable body into a protocol error, still retryable when it is a 5xx", () => {
    const error = readError(answer(502, "<html>Bad gateway</html>", { "x-request-id": "gw_1" }), 0);
    expect(error).toMatchObject({ kind: "protocol", status: 502, code: "server_error", requestId: "gw_1" });
    expect(error.isRetryable).toBe(true);
    expect(error.message).not.toContain("html");
  });
});

describe("fieldErrorsOf", () => {
  it("accepts objects of strings or arrays and lists of { field, message }", () => {
    expect(fieldErrorsOf({ name: "too long", status: ["bad", "worse"] })).toEqual({ name: ["too long"], status: ["bad", "worse"] });
    expect(fieldErrorsOf([{ field: "parent_id", message: "not top level" }])).toEqual({ parent_id: ["not top level"] });
    expect(fieldErrorsOf(undefined)).toEqual({});
  });
});

describe("readSuccess", () => {
  it("returns data, request id and the replay flag", () => {
    const success = readSuccess(answer(201, { data: { id: 1 }, meta: { request_id: "req_1" } }, { "idempotency-replay": "1" }));
    expect(success).toEqual({ data: { id: 1 }, requestId: "req_1", replayed: true });
  });

  it("refuses a 2xx without the envelope", () => {
    expect(() => readSuccess(answer(200, "not json"))).toThrow(PlatformError);
    expect(() => readSuccess(answer(200, { id: 1 }))).toThrow(/envelope/);
  });
});
