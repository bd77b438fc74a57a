import { describe, expect, it } from "vitest";
import { describeFailure, FAILURE_REASONS, failurePath } from "@/lib/oauth/failure-reasons";
import ar from "@/messages/ar.json";
import en from "@/messages/en.json";
import fr from "@/messages/fr.json";
import { errorFromTokenResponse, failureReasonFor, parseTokenSuccess } from "@/lib/oauth/token-response";
import { PlatformError } from "@/lib/platform";

const json = (body: unknown) => JSON.stringify(body);
const headers = (init: Record<string, string> = {}) => new Headers({ "cache-control": "no-store", ...init });

/** Every row of the spec's token endpoint error table, and the page each one leads to. */
const SPEC_ERRORS = [
  { status: 401, error: "invalid_client", description: "Client authentication failed", reason: "invalid_client" },
  { status: 400, error: "unsupported_grant_type", description: "Only authorization_code is supported", reason: "unsupported_grant_type" },
  {
    status: 400,
    error: "invalid_grant",
    description: "The code is invalid, expired, already used, or does not match this request",
    reason: "invalid_grant",
  },
  { status: 400, error: "invalid_grant", description: "No approved store could be installed", reason: "no_store_installed" },
  { status: 500, error: "server_error", description: "The code could not be checked", reason: "server_error" },
  { status: 500, error: "server_error", description: "The install could not be completed", reason: "server_error" },
] as const;

describe("errorFromTokenResponse", () => {
  it.each(SPEC_ERRORS)("maps $status $error ($description) to an oauth PlatformError and the $reason page", (row) => {
    const error = errorFromTokenResponse(row.status, headers({ "x-request-id": "req_1" }), json({ error: row.error, error_description: row.description }));
    expect(error).toBeInstanceOf(PlatformError);
    expect(error.kind).toBe("oauth");
    expect(error.status).toBe(row.status);
    expect(error.code).toBe(row.error);
    expect(error.requestId).toBe("req_1");
    expect(error.message).toContain(row.description);
    expect(failureReasonFor(error)).toBe(row.reason);
  });

  it("keeps Retry-After of a rate-limit refusal, JSON or not", () => {
    const asJson = errorFromTokenResponse(429, headers({ "retry-after": "42" }), json({ error: "rate_limited" }));
    expect(asJson.retryAfter).toBe(42);
    expect(failureReasonFor(asJson)).toBe("rate_limited");
    const asHtml = errorFromTokenResponse(429, headers({ "retry-after": "120" }), "<html>slow down</html>");
    expect(asHtml.code).toBe("rate_limited");
    expect(asHtml.retryAfter).toBe(120);
    expect(failureReasonFor(asHtml)).toBe("rate_limited");
    const nested = errorFromTokenResponse(429, headers(), json({ error: { code: "rate_limited", retry_after: 30 } }));
    expect(failureReasonFor(nested)).toBe("rate_limited");
  });

  it("reads a 403 HTML challenge (no User-Agent) as a blocked protocol error, not an OAuth answer", () => {
    const error = errorFromTokenResponse(403, headers({ "content-type": "text/html" }), "<html><body>challenge</body></html>");
    expect(error.kind).toBe("protocol");
    expect(error.code).toBe("blocked");
    expect(failureReasonFor(error)).toBe("blocked");
  });

  it("reads other unparseable answers as protocol errors, 5xx as the platform's fault", () => {
    const bad = errorFromTokenResponse(400, headers(), "not json");
    expect(bad.kind).toBe("protocol");
    expect(failureReasonFor(bad)).toBe("protocol");
    const gateway = errorFromTokenResponse(502, headers(), "<html>bad gateway</html>");
    expect(failureReasonFor(gateway)).toBe("server_error");
  });

  it("never carries a token-shaped description into the message", () => {
    const error = errorFromTokenResponse(400, headers(), json({ error: "invalid_grant", error_description: "leak svcpk_live_abc123" }));
    expect(error.message).not.toContain("svcpk_live_");
  });
});

describe("failureReasonFor", () => {
  it("maps no answer to the network page and errors outside the platform to the storage page", () => {
    expect(failureReasonFor(new PlatformError({ kind: "network", status: null, code: "timeout", message: "x" }))).toBe("network");
    expect(failureReasonFor(new Error("connection to database lost"))).toBe("store_failed");
  });
});

describe("parseTokenSuccess", () => {
  const body = {
    access_token: "svcpk_live_first",
    token_type: "Bearer",
    scope: "orders:read products:read",
    store_id: 101,
    install_id: 7,
    stores: [
      { store_id: 101, store_name: "Amina Couture", install_id: 7, access_token: "svcpk_live_first" },
      { store_id: 103, store_name: "Amina Kids", install_id: 9, access_token: "svcpk_live_second" },
    ],
  };

  it("returns every store of the stores array with its own token, and the scopes as a list", () => {
    expect(parseTokenSuccess(body)).toEqual({
      scopes: ["orders:read", "products:read"],
      stores: [
        { storeId: 101, storeName: "Amina Couture", installId: 7, accessToken: "svcpk_live_first" },
        { storeId: 103, storeName: "Amina Kids", installId: 9, accessToken: "svcpk_live_second" },
      ],
    });
  });

  it("refuses a body without a stores array, without echoing the body", () => {
    const { stores: _stores, ...withoutStores } = body;
    try {
      parseTokenSuccess(withoutStores);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(PlatformError);
      expect((error as PlatformError).kind).toBe("protocol");
      expect((error as PlatformError).message).not.toContain("svcpk_live_");
      expect(failureReasonFor(error)).toBe("protocol");
    }
  });

  it("treats an empty stores array as nothing installed", () => {
    expect(() => parseTokenSuccess({ ...body, stores: [] })).toThrow(PlatformError);
    try {
      parseTokenSuccess({ ...body, stores: [] });
    } catch (error) {
      expect(failureReasonFor(error)).toBe("no_store_installed");
    }
  });

  it("refuses a token type other than Bearer", () => {
    expect(() => parseTokenSuccess({ ...body, token_type: "mac" })).toThrow(/Bearer/);
  });
});

describe("describeFailure", () => {
  it("names a title and an explanation in every locale for every reason, and the generic text for anything else", () => {
    for (const reason of FAILURE_REASONS) {
      const text = describeFailure(reason);
      expect(text.reason).toBe(reason);
      for (const messages of [en, fr, ar]) {
        expect(lookup(messages, text.titleKey).length).toBeGreaterThan(5);
        expect(lookup(messages, text.detailKey).length).toBeGreaterThan(5);
      }
    }
    expect(describeFailure("<script>alert(1)</script>")).toMatchObject({ reason: null, titleKey: "InstallFailed.reason.unknown.title" });
    expect(describeFailure("toString").reason).toBeNull();
    expect(describeFailure(undefined).reason).toBeNull();
  });
});

describe("waiting reasons", () => {
  it("carry the minutes to wait, from 1 to 10, only for the reasons that wait", () => {
    expect(failurePath("too_many_attempts", 9.2)).toBe("/install/failed?reason=too_many_attempts&minutes=10");
    expect(failurePath("platform_busy", 0)).toBe("/install/failed?reason=platform_busy&minutes=1");
    expect(failurePath("platform_busy", 3)).toBe("/install/failed?reason=platform_busy&minutes=3");
    expect(failurePath("platform_busy", 42)).toBe("/install/failed?reason=platform_busy&minutes=10");
    expect(failurePath("expired")).toBe("/install/failed?reason=expired");
    expect(describeFailure("platform_busy", "3")).toMatchObject({ reason: "platform_busy", minutes: 3 });
    expect(describeFailure("too_many_attempts", "7").minutes).toBe(7);
    for (const odd of [undefined, "", "0", "03", "-2", "2.5", "99", "1e1", "1a", "<b>"]) {
      expect(describeFailure("too_many_attempts", odd).minutes).toBe(10);
    }
    expect(describeFailure("expired", "3").minutes).toBe(0);
    expect(describeFailure("nonsense", "3").minutes).toBe(0);
  });

  it("say the minutes in every locale", () => {
    for (const reason of ["too_many_attempts", "platform_busy"] as const) {
      for (const messages of [en, fr, ar]) expect(lookup(messages, describeFailure(reason).detailKey)).toContain("{minutes, plural,");
    }
  });
});

function lookup(messages: unknown, key: string): string {
  const value = key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], messages);
  return typeof value === "string" ? value : "";
}
