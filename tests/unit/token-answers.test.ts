import { afterEach, describe, expect, it, vi } from "vitest";
import { errorFromTokenResponse, failureReasonFor, parseTokenSuccess } from "@/lib/oauth/token-response";
import { PlatformError, type PlatformErrorKind } from "@/lib/platform";

/**
 * The token endpoint's answers at their edges: what a success body may and may not hold, how an error answer's
 * code, description, request id and Retry-After are carried, and which failure page each one leads to.
 */
const store = (storeId: number, token: string) => ({ store_id: storeId, store_name: `Store ${storeId}`, install_id: storeId + 1000, access_token: token });
const success = (overrides: Record<string, unknown> = {}) => ({ token_type: "Bearer", scope: "orders:read", stores: [store(101, "svcpk_live_a")], ...overrides });

function thrown(run: () => unknown): PlatformError {
  try {
    run();
  } catch (error) {
    if (error instanceof PlatformError) return error;
    throw error;
  }
  throw new Error("expected a PlatformError");
}

const platformError = (kind: PlatformErrorKind, status: number | null, code: string, message = "x") =>
  new PlatformError({ kind, status, code, message });

describe("parseTokenSuccess at its edges", () => {
  it("keeps the first entry of a store listed twice", () => {
    const result = parseTokenSuccess(success({ stores: [store(101, "svcpk_live_first"), store(102, "svcpk_live_b"), store(101, "svcpk_live_again")] }));
    expect(result.stores.map((entry) => [entry.storeId, entry.accessToken])).toEqual([
      [101, "svcpk_live_first"],
      [102, "svcpk_live_b"],
    ]);
  });

  it("accepts an answer without token_type, and Bearer in any case", () => {
    expect(parseTokenSuccess(success({ token_type: undefined })).stores).toHaveLength(1);
    expect(parseTokenSuccess(success({ token_type: "bearer" })).stores).toHaveLength(1);
    expect(parseTokenSuccess(success({ token_type: "BEARER" })).stores).toHaveLength(1);
    const mac = thrown(() => parseTokenSuccess(success({ token_type: "mac" })));
    expect([mac.kind, mac.status, mac.code]).toEqual(["protocol", 200, "unexpected_response"]);
    expect(failureReasonFor(mac)).toBe("protocol");
  });

  it("reads the scope as a list, with no scope as none", () => {
    expect(parseTokenSuccess(success({ scope: undefined })).scopes).toEqual([]);
    expect(parseTokenSuccess(success({ scope: "" })).scopes).toEqual([]);
    expect(parseTokenSuccess(success({ scope: " orders:read  products:read " })).scopes).toEqual(["orders:read", "products:read"]);
  });

  it("refuses store entries that are not whole positive ids with a token, naming where and never the value", () => {
    for (const entry of [
      { ...store(101, "svcpk_live_a"), store_id: 0 },
      { ...store(101, "svcpk_live_a"), store_id: 1.5 },
      { ...store(101, "svcpk_live_a"), install_id: 0 },
      { ...store(101, "svcpk_live_a"), access_token: "" },
      { ...store(101, "svcpk_live_a"), store_name: 7 },
    ]) {
      const error = thrown(() => parseTokenSuccess(success({ stores: [entry] })));
      expect([error.kind, error.status, error.code]).toEqual(["protocol", 200, "unexpected_response"]);
      expect(error.message).toMatch(/^The token endpoint answered 200 with an unexpected body \(stores\.0\.\w+\)$/);
      expect(error.message).not.toContain("svcpk_live_");
    }
    expect(thrown(() => parseTokenSuccess("svcpk_live_a")).message).toBe("The token endpoint answered 200 with an unexpected body ((body))");
    const twoFields = thrown(() => parseTokenSuccess(success({ stores: [{ ...store(101, "svcpk_live_a"), store_id: 0, install_id: 0 }] })));
    expect(twoFields.message).toBe("The token endpoint answered 200 with an unexpected body (stores.0.store_id, stores.0.install_id)");
  });

  it("reads a 200 without stores as the spec's invalid_grant: nothing installed", () => {
    const error = thrown(() => parseTokenSuccess(success({ stores: [] })));
    expect([error.kind, error.status, error.code]).toEqual(["oauth", 200, "invalid_grant"]);
    expect(failureReasonFor(error)).toBe("no_store_installed");
  });
});

describe("errorFromTokenResponse at its edges", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("reads Retry-After as seconds (rounded up) or as an HTTP date, and ignores what is neither", () => {
    vi.useFakeTimers({ now: new Date("2026-05-01T12:00:00.000Z") });
    const retryAfter = (value?: string) =>
      errorFromTokenResponse(429, new Headers(value === undefined ? {} : { "retry-after": value }), JSON.stringify({ error: "rate_limited" })).retryAfter;
    expect(retryAfter("0")).toBe(0);
    expect(retryAfter("1.2")).toBe(2);
    expect(retryAfter("Fri, 01 May 2026 12:01:30 GMT")).toBe(90);
    expect(retryAfter("Fri, 01 May 2026 11:00:00 GMT")).toBe(0);
    // A negative number is not a wait the app honours (never a negative one).
    expect(retryAfter("-30")).toBeNull();
    expect(retryAfter("soon")).toBeNull();
    expect(retryAfter("")).toBeNull();
    expect(retryAfter()).toBeNull();
  });

  it("carries the request id and Retry-After on every kind of refusal it can", () => {
    const headers = new Headers({ "x-request-id": "req_9", "retry-after": "30" });
    const html429 = errorFromTokenResponse(429, headers, "<html>slow down</html>");
    expect([html429.kind, html429.code, html429.requestId, html429.retryAfter]).toEqual(["oauth", "rate_limited", "req_9", 30]);
    expect(html429.message).toBe("Token endpoint refused the exchange: rate_limited");
    const blocked = errorFromTokenResponse(403, headers, "<html>challenge</html>");
    expect([blocked.kind, blocked.status, blocked.code, blocked.requestId]).toEqual(["protocol", 403, "blocked", "req_9"]);
    expect(blocked.message).toMatch(/User-Agent/);
    const other = errorFromTokenResponse(418, headers, "teapot");
    expect([other.kind, other.status, other.code, other.requestId]).toEqual(["protocol", 418, "unexpected_response", "req_9"]);
    expect(other.message).toBe("The token endpoint answered 418 with a body that is not an OAuth error");
  });

  it("takes only a short non-empty error code as an OAuth answer", () => {
    expect(errorFromTokenResponse(400, new Headers(), JSON.stringify({ error: "" })).kind).toBe("protocol");
    expect(errorFromTokenResponse(400, new Headers(), JSON.stringify({ error: "e".repeat(101) })).kind).toBe("protocol");
    expect(errorFromTokenResponse(400, new Headers(), JSON.stringify({ error: "e".repeat(100) })).code).toBe("e".repeat(100));
  });

  it("keeps a description printable, short and token-free, and leaves the parentheses out without one", () => {
    const message = (description: unknown) =>
      errorFromTokenResponse(400, new Headers(), JSON.stringify({ error: "invalid_request", error_description: description })).message;
    expect(message(undefined)).toBe("Token endpoint refused the exchange: invalid_request");
    expect(message("")).toBe("Token endpoint refused the exchange: invalid_request");
    expect(message("bad\u0000 redirect\u2028 uri")).toBe("Token endpoint refused the exchange: invalid_request (bad redirect uri)");
    expect(message("d".repeat(300))).toBe(`Token endpoint refused the exchange: invalid_request (${"d".repeat(200)})`);
    for (const secret of ["svcpk_live_x", "svcas_x", "svcwhsec_x"]) {
      expect(message(`echo ${secret}`)).toBe("Token endpoint refused the exchange: invalid_request");
    }
  });
});

describe("failureReasonFor at its edges", () => {
  it("sends an OAuth error outside the spec's table to the protocol page, or the server page when the platform failed", () => {
    expect(failureReasonFor(platformError("oauth", 400, "invalid_request"))).toBe("protocol");
    expect(failureReasonFor(platformError("oauth", 499, "constructor"))).toBe("protocol");
    expect(failureReasonFor(platformError("oauth", 500, "temporarily_unavailable"))).toBe("server_error");
    expect(failureReasonFor(platformError("oauth", null, "odd"))).toBe("protocol");
    // Codes of the table lead to their page whatever status carried them.
    expect(failureReasonFor(platformError("oauth", 400, "server_error"))).toBe("server_error");
    expect(failureReasonFor(platformError("oauth", 400, "rate_limited"))).toBe("rate_limited");
    expect(failureReasonFor(platformError("oauth", null, "rate_limited"))).toBe("rate_limited");
  });

  it("reads invalid_grant as a code problem unless the platform says no store could be installed", () => {
    expect(failureReasonFor(platformError("oauth", 400, "invalid_grant", "Token endpoint refused the exchange: invalid_grant"))).toBe("invalid_grant");
    expect(
      failureReasonFor(platformError("oauth", 400, "invalid_grant", "Token endpoint refused the exchange: invalid_grant (NO APPROVED STORE could be installed)")),
    ).toBe("no_store_installed");
    // Only invalid_grant carries that meaning.
    expect(failureReasonFor(platformError("oauth", 400, "invalid_request", "No approved store could be installed"))).toBe("protocol");
  });

  it("sends a 429 of any kind to the rate-limit page, and sorts protocol errors by who failed", () => {
    expect(failureReasonFor(platformError("protocol", 429, "unexpected_response"))).toBe("rate_limited");
    expect(failureReasonFor(platformError("protocol", 500, "unexpected_response"))).toBe("server_error");
    expect(failureReasonFor(platformError("protocol", 499, "unexpected_response"))).toBe("protocol");
    expect(failureReasonFor(platformError("protocol", null, "unexpected_response"))).toBe("protocol");
    expect(failureReasonFor(platformError("protocol", 403, "blocked"))).toBe("blocked");
    expect(failureReasonFor(platformError("network", null, "unreachable"))).toBe("network");
    expect(failureReasonFor(platformError("api", 500, "server_error"))).toBe("protocol");
    expect(failureReasonFor(platformError("local", null, "blocked"))).toBe("protocol");
  });
});
