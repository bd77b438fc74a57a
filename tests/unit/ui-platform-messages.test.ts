import { describe, expect, it } from "vitest";
import { PlatformError, type PlatformErrorInit } from "@/lib/platform";
import { describePlatformError as describeIn, waitPhrase as waitIn } from "@/lib/merchant-text/platform-error";
import { translator } from "../helpers/i18n";

const t = translator("en");
const describePlatformError = (error: PlatformError) => describeIn(error, t);
const waitPhrase = (seconds: number | null) => waitIn(seconds, t);

function apiError(init: Partial<PlatformErrorInit> & { status: number | null; code: string }): PlatformError {
  return new PlatformError({ kind: "api", message: "platform said no", ...init });
}

describe("describePlatformError", () => {
  it("turns a rate limit into the wait the platform asked for, keeping the request retryable", () => {
    const described = describePlatformError(apiError({ status: 429, code: "rate_limited", retryAfter: 17 }));
    expect(described.message).toContain("Wait 17 seconds");
    expect(described.retryAfter).toBe(17);
    expect(described.retryable).toBe(true);
    const busy = describePlatformError(apiError({ status: 429, code: "too_many_concurrent", retryAfter: 5 }));
    expect(busy.message).toMatch(/busy/);
    expect(busy.message).toContain("Wait 5 seconds");
  });

  it("treats the app's own spent budget like a rate limit", () => {
    const described = describePlatformError(
      new PlatformError({ kind: "local", status: null, code: "rate_budget_exhausted", message: "spent", retryAfter: 40 }),
    );
    expect(described.message).toContain("Wait 40 seconds");
    expect(described.retryable).toBe(true);
  });

  it("sends the merchant to reinstall after a revoked token", () => {
    const described = describePlatformError(apiError({ status: 401, code: "unauthorized" }));
    expect(described.reinstall).toBe(true);
    expect(described.retryable).toBe(false);
    expect(described.message).toMatch(/Reinstall/);
  });

  it("explains each install state refusal with what to do", () => {
    expect(describePlatformError(apiError({ status: 403, code: "app_suspended" })).message).toMatch(/suspended.*resume/);
    expect(describePlatformError(apiError({ status: 403, code: "app_plan_required" })).message).toMatch(/upgrade the store's plan/);
    expect(describePlatformError(apiError({ status: 403, code: "app_not_approved" })).message).toMatch(/approval/);
    expect(describePlatformError(apiError({ status: 403, code: "app_uninstalled" })).reinstall).toBe(true);
  });

  it("says a non-empty category must be emptied first", () => {
    const described = describePlatformError(apiError({ status: 409, code: "category_not_empty" }));
    expect(described.message).toMatch(/still holds products or subcategories/);
    expect(described.fieldErrors).toBeUndefined();
  });

  it("puts an invalid parent on the parent field", () => {
    const described = describePlatformError(apiError({ status: 422, code: "invalid_parent" }));
    expect(described.fieldErrors?.parentId?.[0]).toMatch(/top-level category/);
  });

  it("maps the platform's validation fields onto the form's field names", () => {
    const described = describePlatformError(
      apiError({
        status: 422,
        code: "validation_error",
        fieldErrors: { name: ["name must be at most 100 characters"], parent_id: ["must be an integer"] },
      }),
    );
    expect(described.fieldErrors).toEqual({
      name: ["Name must be at most 100 characters."],
      parentId: ["Must be an integer."],
    });
    const bare = describePlatformError(apiError({ status: 422, code: "validation_error", message: "categories must not be empty" }));
    expect(bare.fieldErrors).toBeUndefined();
    expect(bare.message).toContain("Categories must not be empty.");
  });

  it("explains a payload that is too large", () => {
    const described = describePlatformError(apiError({ status: 413, code: "payload_too_large" }));
    expect(described.message).toMatch(/too much data/);
  });

  it("marks a category deleted elsewhere as gone, so the page can offer a reload", () => {
    const described = describePlatformError(apiError({ status: 404, code: "not_found" }));
    expect(described.gone).toBe(true);
    expect(described.message).toMatch(/no longer exists/);
  });

  it("keeps outages retryable and never echoes the raw platform message for them", () => {
    const described = describePlatformError(apiError({ status: 502, code: "server_error", message: "key lookup failed: svcpk_live_x" }));
    expect(described.retryable).toBe(true);
    expect(described.message).not.toContain("svcpk_live_");
    const network = describePlatformError(new PlatformError({ kind: "network", status: null, code: "network", message: "ECONNREFUSED" }));
    expect(network.retryable).toBe(true);
    expect(network.message).not.toContain("ECONNREFUSED");
  });
});

describe("waitPhrase", () => {
  it("speaks in seconds, minutes or a moment", () => {
    expect(waitPhrase(1)).toBe("Wait 1 second, then try again.");
    expect(waitPhrase(null)).toBe("Wait a moment, then try again.");
    expect(waitPhrase(600)).toBe("Wait about 10 minutes, then try again.");
  });
});

describe("in French and Arabic", () => {
  it("says the same things with the locale's plural and Latin digits", () => {
    const error = apiError({ status: 429, code: "rate_limited", retryAfter: 17 });
    expect(describeIn(error, translator("fr")).message).toContain("17 secondes");
    const arabic = describeIn(error, translator("ar")).message;
    expect(arabic).toContain("17");
    expect(arabic).not.toMatch(/[\u0660-\u0669]/);
    expect(describeIn(apiError({ status: 401, code: "unauthorized" }), translator("fr")).message).toMatch(/Réinstallez/);
  });
});
