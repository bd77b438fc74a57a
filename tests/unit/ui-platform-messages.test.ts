import { describe, expect, it } from "vitest";
import { describeCategoryRefusal as describeCategoryIn } from "@/app/stores/[storeId]/categories/refusal";
import { PlatformError, type PlatformErrorInit } from "@/lib/platform";
import { describePlatformError as describeIn, missingScope, waitPhrase as waitIn } from "@/lib/merchant-text/platform-error";
import { scopeLabel } from "@/lib/merchant-text/scope";
import { translator } from "../helpers/i18n";

const t = translator("en");
const describePlatformError = (error: PlatformError) => describeIn(error, t);
const describeCategoryRefusal = (error: PlatformError) => describeCategoryIn(error, t);
const waitPhrase = (seconds: number | null) => waitIn(seconds, t);

function apiError(init: Partial<PlatformErrorInit> & { status: number | null; code: string }): PlatformError {
  return new PlatformError({ kind: "api", message: "platform said no", requestId: "req-9", ...init });
}

/** A 403 as the platform writes it for a token without the scope the call needs. */
const withoutScope = (scope: string) => apiError({ status: 403, code: "forbidden", message: `Missing scope: ${scope}` });

describe("describePlatformError", () => {
  it("turns a rate limit into the wait the platform asked for, keeping the request retryable", () => {
    const described = describePlatformError(apiError({ status: 429, code: "rate_limited", retryAfter: 17 }));
    expect(described.message).toBe("The platform's request limit for this store is reached for now. Wait 17 seconds, then try again.");
    expect(described).toMatchObject({ retryAfter: 17, retryable: true, reinstall: false, requestId: "req-9" });
    const busy = describePlatformError(apiError({ status: 429, code: "too_many_concurrent", retryAfter: 5 }));
    expect(busy.message).toMatch(/busy.*Wait 5 seconds/);
    expect(describePlatformError(apiError({ status: 429, code: "rate_limited", retryAfter: 300 })).message).toMatch(/about 5 minutes/);
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
    expect(described).toMatchObject({ reinstall: true, retryable: false });
    expect(described.message).toMatch(/Reinstall/);
  });

  it("explains each install state refusal with what to do; only a plan upgrade makes trying again worth it", () => {
    const suspended = describePlatformError(apiError({ status: 403, code: "app_suspended" }));
    expect(suspended.message).toMatch(/suspended.*until the suspension is lifted/);
    expect(suspended).toMatchObject({ retryable: false, reinstall: false });
    const plan = describePlatformError(apiError({ status: 403, code: "app_plan_required" }));
    expect(plan.message).toMatch(/Upgrade the store's plan/);
    expect(plan.retryable).toBe(true);
    expect(describePlatformError(apiError({ status: 403, code: "app_not_approved" })).message).toMatch(/approval/);
    expect(describePlatformError(apiError({ status: 403, code: "app_uninstalled" })).reinstall).toBe(true);
  });

  it("402 says the quota or the wallet is spent and that retrying will not help", () => {
    const quota = describePlatformError(apiError({ status: 402, code: "quota_exceeded" }));
    expect(quota.message).toMatch(/monthly request quota.*Retrying will not help/);
    expect(quota.retryable).toBe(false);
    expect(describePlatformError(apiError({ status: 402, code: "no_credit" })).message).toMatch(/messaging wallet is empty/);
  });

  it("names the permission a page lacks, through its label, and sends the merchant to install again", () => {
    const orders = describePlatformError(withoutScope("orders:read"));
    expect(orders.message).toBe("This needs a permission the store did not grant the app: “See orders”. Install the app again and approve that permission.");
    expect(orders).toMatchObject({ reinstall: true, retryable: false });
    expect(describePlatformError(withoutScope("analytics:read")).message).toContain("“See the store's sales figures”");
    expect(describePlatformError(withoutScope("products:write")).message).toContain("“Change products and categories”");
    // A scope the platform adds later is still named, as sent.
    expect(describePlatformError(withoutScope("invoices:read")).message).toContain("“Other permission (invoices:read)”");
  });

  it("a store without the scope a page needs sees that scope named, in each language", () => {
    const error = withoutScope("orders:read");
    expect(describeIn(error, translator("en")).message).toContain("“See orders”");
    expect(describeIn(error, translator("fr")).message).toContain("«\u00a0Voir les commandes\u00a0»");
    expect(describeIn(error, translator("fr")).message).toMatch(/Réinstallez/);
    expect(describeIn(error, translator("ar")).message).toContain("«الاطلاع على الطلبات»");
    expect(describeIn(withoutScope("analytics:read"), translator("ar")).message).toContain("«الاطلاع على أرقام مبيعات المتجر»");
    expect(describeIn(withoutScope("analytics:read"), translator("fr")).message).toContain("Voir les chiffres de vente de la boutique");
  });

  it("reads the scope from the platform's 403 and from nothing else", () => {
    expect(missingScope(withoutScope("orders:read"))).toBe("orders:read");
    expect(missingScope(apiError({ status: 403, code: "forbidden", message: "Missing scope:" }))).toBeNull();
    expect(missingScope(apiError({ status: 403, code: "forbidden", message: "Apps cannot use this endpoint" }))).toBeNull();
    expect(missingScope(apiError({ status: 403, code: "app_suspended", message: "Missing scope: orders:read" }))).toBeNull();
  });

  it("any other 403 says access was refused, without naming a permission it does not know", () => {
    const closed = describePlatformError(apiError({ status: 403, code: "forbidden", message: "Apps cannot use this endpoint" }));
    expect(closed.message).toMatch(/refused the app this access/);
    expect(closed.message).not.toContain("“");
    expect(closed.reinstall).toBe(true);
    expect(describePlatformError(apiError({ status: 403, code: "forbidden", message: "Missing scope:" })).message).toMatch(/refused the app this access/);
  });

  it("says what is gone is gone, without naming a kind of thing", () => {
    const described = describePlatformError(apiError({ status: 404, code: "not_found" }));
    expect(described.message).toMatch(/no longer has what was asked for/);
    expect(described.retryable).toBe(false);
  });

  it("keeps outages and unreadable answers retryable and never echoes the platform's own text", () => {
    const described = describePlatformError(apiError({ status: 502, code: "server_error", message: "key lookup failed: svcpk_live_x" }));
    expect(described.retryable).toBe(true);
    expect(described.message).toMatch(/not answering/);
    expect(described.message).not.toContain("svcpk_live_");
    const network = describePlatformError(new PlatformError({ kind: "network", status: null, code: "network", message: "ECONNREFUSED" }));
    expect(network.retryable).toBe(true);
    expect(network.message).not.toContain("ECONNREFUSED");
    const unreadable = describePlatformError(new PlatformError({ kind: "protocol", status: 200, code: "bad_shape", message: "expected data" }));
    expect(unreadable).toMatchObject({ retryable: true });
    expect(unreadable.message).toMatch(/could not be read/);
  });

  it("our own refusals and unknown ones are final and show only a code", () => {
    const local = describePlatformError(new PlatformError({ kind: "local", status: null, code: "invalid_input", message: "bad svcpk_live_y" }));
    expect(local).toMatchObject({ retryable: false, reinstall: false });
    expect(local.message).toMatch(/could not send this request.*contact the app's developer/);
    expect(local.message).not.toContain("svcpk_live_");
    const unknown = describePlatformError(apiError({ status: 418, code: "teapot", message: "internal detail" }));
    expect(unknown.message).toBe("The platform refused the request (teapot). If this keeps happening, contact the app's developer.");
    expect(unknown.retryable).toBe(false);
    expect(describePlatformError(apiError({ status: 400, code: "", message: "x" })).message).toMatch(/^The platform refused the request \(400\)\./);
  });
});

describe("describeCategoryRefusal (the categories form's own refusals)", () => {
  it("says a non-empty category must be emptied first", () => {
    const described = describeCategoryRefusal(apiError({ status: 409, code: "category_not_empty" }));
    expect(described.message).toMatch(/still holds products or subcategories/);
    expect(described.fieldErrors).toBeUndefined();
    expect(described.retryable).toBe(false);
  });

  it("puts an invalid parent on the parent field", () => {
    const described = describeCategoryRefusal(apiError({ status: 422, code: "invalid_parent" }));
    expect(described.fieldErrors?.parentId?.[0]).toMatch(/top-level category/);
  });

  it("maps the platform's validation fields onto the form's field names", () => {
    const described = describeCategoryRefusal(
      apiError({
        status: 422,
        code: "validation_error",
        fieldErrors: { name: ["name must be at most 100 characters"], parent_id: ["must be an integer"], "categories.0.id": ["unknown"], color: ["no"] },
      }),
    );
    expect(described.fieldErrors).toEqual({
      name: ["Name must be at most 100 characters."],
      parentId: ["Must be an integer."],
      order: ["Unknown."],
      form: ["No."],
    });
    expect(described.message).toMatch(/see the highlighted fields/);
    const bare = describeCategoryRefusal(apiError({ status: 422, code: "validation_error", message: "categories must not be empty" }));
    expect(bare.fieldErrors).toBeUndefined();
    expect(bare.message).toContain("Categories must not be empty.");
  });

  it("explains a payload that is too large, on the name", () => {
    const described = describeCategoryRefusal(apiError({ status: 413, code: "payload_too_large" }));
    expect(described.message).toMatch(/too much data/);
    expect(described.fieldErrors?.name?.[0]).toMatch(/Too long/);
  });

  it("marks a category deleted elsewhere as gone, so the form can offer a reload", () => {
    const described = describeCategoryRefusal(apiError({ status: 404, code: "not_found" }));
    expect(described.gone).toBe(true);
    expect(described.message).toMatch(/This category no longer exists/);
  });

  it("a reused form key asks to send it again", () => {
    expect(describeCategoryRefusal(apiError({ status: 422, code: "idempotency_key_reuse" })).message).toMatch(/already used/);
  });

  it("hands everything else to the describer every page uses", () => {
    for (const error of [
      apiError({ status: 429, code: "rate_limited", retryAfter: 5 }),
      withoutScope("products:write"),
      apiError({ status: 503, code: "server_error" }),
      apiError({ status: 401, code: "unauthorized" }),
    ]) {
      expect(describeCategoryRefusal(error)).toEqual(describePlatformError(error));
    }
    expect(describeCategoryRefusal(withoutScope("products:write")).message).toContain("“Change products and categories”");
  });
});

describe("scopeLabel", () => {
  it("names each documented scope in the merchant's words, and an unknown one as sent", () => {
    expect(scopeLabel("products:read", t)).toBe("See products and categories");
    expect(scopeLabel("whatsapp:send", translator("fr"))).toBe("Envoyer des messages WhatsApp");
    expect(scopeLabel("ai:generate", t)).toBe("Other permission (ai:generate)");
  });
});

describe("waitPhrase", () => {
  it("speaks in seconds, minutes or a moment", () => {
    expect(waitPhrase(1)).toBe("Wait 1 second, then try again.");
    expect(waitPhrase(89)).toBe("Wait 89 seconds, then try again.");
    expect(waitPhrase(90)).toBe("Wait about 2 minutes, then try again.");
    expect(waitPhrase(null)).toBe("Wait a moment, then try again.");
    expect(waitPhrase(0)).toBe("Wait a moment, then try again.");
    expect(waitPhrase(600)).toBe("Wait about 10 minutes, then try again.");
  });
});

describe("in French and Arabic", () => {
  it("says the same things with the locale's plural and Latin digits", () => {
    const error = apiError({ status: 429, code: "rate_limited", retryAfter: 17 });
    expect(describeIn(error, translator("fr")).message).toContain("17 secondes");
    expect(describeIn(apiError({ status: 429, code: "rate_limited", retryAfter: 1 }), translator("fr")).message).toContain("Patientez 1 seconde, puis réessayez.");
    const arabic = describeIn(error, translator("ar")).message;
    expect(arabic).toContain("17");
    expect(arabic).not.toMatch(/[\u0660-\u0669]/);
    expect(describeIn(apiError({ status: 429, code: "rate_limited", retryAfter: 2 }), translator("ar")).message).toMatch(/انتظر ثانيتين/);
    expect(describeIn(apiError({ status: 402, code: "quota_exceeded" }), translator("ar")).message).toMatch(/الحصة/);
    expect(describeIn(apiError({ status: 401, code: "unauthorized" }), translator("fr")).message).toMatch(/Réinstallez/);
  });
});
