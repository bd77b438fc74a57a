import { describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { unstable_doesMiddlewareMatch } from "next/experimental/testing/server";
import { LOCALES } from "@/i18n/locales";
import { CATALOGUES } from "@/i18n/plain-text";
import { config, contentSecurityPolicy, proxy, securityHeaders } from "@/proxy";

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(";").map((part) => {
      const [name = "", ...values] = part.trim().split(/\s+/);
      return [name, values];
    }),
  );
}

describe("content security policy", () => {
  const production = { nonce: "bm9uY2U=", development: false, https: true, formActionOrigins: ["https://auth.svc-platform.com"] };

  it("allows scripts only by nonce (no unsafe-inline, no unsafe-eval) in production", () => {
    const policy = directives(contentSecurityPolicy(production));
    expect(policy.get("script-src")).toEqual(["'self'", "'nonce-bm9uY2U='", "'strict-dynamic'"]);
    expect(policy.get("style-src")).toEqual(["'self'", "'nonce-bm9uY2U='"]);
    expect(policy.get("object-src")).toEqual(["'none'"]);
    expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
    expect(policy.get("base-uri")).toEqual(["'self'"]);
    expect(policy.get("form-action")).toEqual(["'self'", "https://auth.svc-platform.com"]);
    expect(policy.has("upgrade-insecure-requests")).toBe(true);
  });

  it("adds what next dev needs in development, and never upgrades requests of an http app", () => {
    const development = directives(contentSecurityPolicy({ ...production, development: true, https: false }));
    expect(development.get("script-src")).toContain("'unsafe-eval'");
    // Next's dev tools overlay injects <style> elements without a nonce; a nonce would disable 'unsafe-inline'.
    expect(development.get("style-src")).toEqual(["'self'", "'unsafe-inline'"]);
    expect(development.get("connect-src")).toEqual(["'self'", "ws:", "wss:"]);
    expect(development.has("upgrade-insecure-requests")).toBe(false);
    expect(directives(contentSecurityPolicy({ ...production, https: false })).has("upgrade-insecure-requests")).toBe(false);
  });

  it("sends HSTS in production only, and the other headers always", () => {
    const prod = securityHeaders(production);
    expect(prod["Strict-Transport-Security"]).toBe("max-age=63072000; includeSubDomains");
    expect(prod["Referrer-Policy"]).toBe("strict-origin-when-cross-origin");
    expect(prod["X-Content-Type-Options"]).toBe("nosniff");
    expect(prod["X-Frame-Options"]).toBe("DENY");
    expect(securityHeaders({ ...production, development: true })["Strict-Transport-Security"]).toBeUndefined();
  });
});

describe("proxy", () => {
  it("puts a fresh nonce in the policy on both the response and the request Next renders from", () => {
    const first = proxy(new NextRequest("http://localhost:3000/stores"));
    const second = proxy(new NextRequest("http://localhost:3000/stores"));
    const policy = first.headers.get("content-security-policy") ?? "";
    const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(second.headers.get("content-security-policy")).not.toContain(nonce);
    // NextResponse.next({ request: { headers } }) forwards request headers as x-middleware-request-*.
    expect(first.headers.get("x-middleware-request-content-security-policy")).toBe(policy);
    expect(first.headers.get("x-middleware-request-x-nonce")).toBe(nonce);
    expect(first.headers.get("x-content-type-options")).toBe("nosniff");
    expect(first.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
  });

  it("keeps a plausible incoming request id, replaces a forged one, and echoes it", () => {
    const kept = proxy(new NextRequest("http://localhost:3000/", { headers: { "x-request-id": "lb-7f3a9c21" } }));
    expect(kept.headers.get("x-request-id")).toBe("lb-7f3a9c21");
    expect(kept.headers.get("x-middleware-request-x-request-id")).toBe("lb-7f3a9c21");
    const replaced = proxy(new NextRequest("http://localhost:3000/", { headers: { "x-request-id": "bad id <script>" } }));
    expect(replaced.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(proxy(new NextRequest("http://localhost:3000/")).headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it.each(["/", "/stores", "/stores/101/orders", "/stores/101/categories", "/install/failed?reason=access_denied", "/api/health", "/oauth/callback"])(
    "runs on %s",
    (path) => {
      expect(unstable_doesMiddlewareMatch({ config, url: path })).toBe(true);
    },
  );

  it.each(["/api/webhooks", "/_next/static/chunks/main.js", "/_next/image?url=x", "/favicon.ico"])("stays out of %s", (path) => {
    expect(unstable_doesMiddlewareMatch({ config, url: path })).toBe(false);
  });

  it("runs on prefetches too: a prefetched answer can be shown as the page", () => {
    expect(unstable_doesMiddlewareMatch({ config, url: "/stores", headers: { "next-router-prefetch": "1" } })).toBe(true);
    expect(unstable_doesMiddlewareMatch({ config, url: "/stores/101/orders", headers: { purpose: "prefetch" } })).toBe(true);
    const answer = proxy(new NextRequest("http://localhost:3000/stores", { headers: { "next-router-prefetch": "1", purpose: "prefetch" } }));
    expect(answer.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(answer.headers.get("x-frame-options")).toBe("DENY");
  });

  it("refuses a state-changing request from another site before any route runs, and lets the app's own through", async () => {
    const crossSite = proxy(
      new NextRequest("http://localhost:3000/signout", {
        method: "POST",
        headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
      }),
    );
    expect(crossSite.status).toBe(403);
    expect(crossSite.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(crossSite.headers.get("x-middleware-next")).toBeNull();
    // In the catalogue's words, every locale's, the merchant's own first (here the default, DEFAULT_LOCALE).
    const refusal = await crossSite.text();
    for (const locale of LOCALES) expect(refusal).toContain(CATALOGUES[locale].Security.crossSiteRefused);

    const own = proxy(new NextRequest("http://localhost:3000/signout", { method: "POST", headers: { "sec-fetch-site": "same-origin" } }));
    expect(own.headers.get("x-middleware-next")).toBe("1");
    // A cross-site navigation that changes nothing is the consent screen coming back: it must pass.
    const callback = proxy(new NextRequest("http://localhost:3000/oauth/callback?code=x", { headers: { "sec-fetch-site": "cross-site" } }));
    expect(callback.headers.get("x-middleware-next")).toBe("1");
  });

  it("answers another site's request in the merchant's language first: the language cookie, else the browser's", async () => {
    const refused = (headers: Record<string, string>) =>
      proxy(new NextRequest("http://localhost:3000/signout", { method: "POST", headers: { "sec-fetch-site": "cross-site", ...headers } })).text();
    const arabicFirst = await refused({ cookie: "NEXT_LOCALE=ar", "accept-language": "fr" });
    expect(arabicFirst.startsWith(CATALOGUES.ar.Security.crossSiteRefused)).toBe(true);
    const frenchFirst = await refused({ "accept-language": "fr-DZ,fr;q=0.9" });
    expect(frenchFirst.startsWith(CATALOGUES.fr.Security.crossSiteRefused)).toBe(true);
    expect(frenchFirst).toContain(CATALOGUES.en.Security.crossSiteRefused);
    expect(frenchFirst).toContain(CATALOGUES.ar.Security.crossSiteRefused);
  });

  it("hands the page its own path, for the sign-in link of a 404", () => {
    const answer = proxy(new NextRequest("http://localhost:3000/stores/101/orders?status=shipped"));
    expect(answer.headers.get("x-middleware-request-x-app-request-path")).toBe("/stores/101/orders?status=shipped");
  });
});
