import { randomFillSync } from "node:crypto";
import { NextResponse, type NextRequest } from "next/server";
import { LOCALE_COOKIE } from "@/i18n/locales";
import { resolveLocale } from "@/i18n/negotiate";
import { crossSiteRefusal } from "@/i18n/plain-text";
import { env } from "@/lib/env";
import { isCrossSiteRequest, isSafeMethod } from "@/lib/http/cross-site";
import { NONCE_HEADER } from "@/lib/http/nonce";
import { REQUEST_PATH_HEADER } from "@/lib/http/request-path";
import { REQUEST_ID_HEADER, acceptOrCreateRequestId } from "@/lib/request-id";

/**
 * Security headers and the per-request CSP nonce for every page (Next 16's proxy, formerly middleware).
 * Next reads the nonce back from the request's Content-Security-Policy header and puts it on the scripts it
 * injects, so pages satisfy a policy with no 'unsafe-inline' for scripts. Pages must render per request for
 * that to work (a prerendered page has no request, hence no nonce).
 */

export type SecurityHeaderOptions = {
  nonce: string;
  /** next dev needs 'unsafe-eval' (React rebuilds server error stacks with eval), inline styles (its dev tools) and no HSTS. */
  development: boolean;
  /** Only an https app may ask browsers to upgrade requests; on http://localhost that would break every asset. */
  https: boolean;
  /** Origins a form may be sent to besides our own: the consent page lives on the platform's auth host. */
  formActionOrigins?: string[];
};

export function contentSecurityPolicy(options: SecurityHeaderOptions): string {
  const { nonce, development } = options;
  const directives = [
    "default-src 'self'",
    // 'strict-dynamic' lets the nonced Next runtime load its chunks; 'self' is the fallback for CSP2 browsers.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    // Stylesheets and <style> elements need our origin or the nonce. Style attributes (React's style prop,
    // Next's built-in error pages) cannot run code, so they are allowed on their own. In development, Next's dev
    // tools overlay injects <style> elements without the nonce (and a nonce would make browsers ignore
    // 'unsafe-inline'), so development allows inline styles; production never does.
    development ? "style-src 'self' 'unsafe-inline'" : `style-src 'self' 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "font-src 'self'",
    // Fetches for server actions and RSC payloads go to our origin; next dev adds its HMR websocket.
    `connect-src 'self'${development ? " ws: wss:" : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    `form-action 'self'${(options.formActionOrigins ?? []).map((origin) => ` ${origin}`).join("")}`,
    "frame-ancestors 'none'",
  ];
  if (options.https && !development) directives.push("upgrade-insecure-requests");
  return directives.join("; ");
}

export function securityHeaders(options: SecurityHeaderOptions): Record<string, string> {
  const headers: Record<string, string> = {
    "Content-Security-Policy": contentSecurityPolicy(options),
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Content-Type-Options": "nosniff",
    // For browsers that predate frame-ancestors.
    "X-Frame-Options": "DENY",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
    "Cross-Origin-Opener-Policy": "same-origin",
  };
  // Browsers ignore HSTS over http, and a developer's localhost must never be pinned to https.
  if (!options.development) headers["Strict-Transport-Security"] = "max-age=63072000; includeSubDomains";
  return headers;
}

const NONCE_BYTES = 16;
/**
 * Random bytes for the nonces, drawn from the system's generator a few kilobytes at a time (as Node does for
 * randomUUID): one call per 256 requests instead of one each. Every nonce still gets its own 16 fresh bytes.
 */
const noncePool = Buffer.alloc(NONCE_BYTES * 256);
let noncePoolOffset = noncePool.length;

function newNonce(): string {
  if (noncePoolOffset >= noncePool.length) {
    randomFillSync(noncePool);
    noncePoolOffset = 0;
  }
  const nonce = noncePool.toString("base64", noncePoolOffset, noncePoolOffset + NONCE_BYTES);
  noncePoolOffset += NONCE_BYTES;
  return nonce;
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** A character no nonce holds (base64), standing for the nonce in the headers written once below. */
const NONCE_SLOT = "\u0000";

/**
 * The security headers with a slot for the nonce, and the app's origin: everything in them but the nonce comes from
 * the environment, fixed for the process, so they are written once rather than on every request.
 */
let template: { headers: [name: string, parts: string[]][]; appOrigin: string } | null = null;

function headerTemplate() {
  if (!template) {
    const authOrigin = originOf(env.SVC_AUTH_URL);
    const headers = securityHeaders({
      nonce: NONCE_SLOT,
      development: env.NODE_ENV === "development",
      https: env.APP_URL.startsWith("https://"),
      formActionOrigins: authOrigin ? [authOrigin] : [],
    });
    template = {
      headers: Object.entries(headers).map(([name, value]) => [name, value.split(NONCE_SLOT)]),
      appOrigin: new URL(env.APP_URL).origin,
    };
  }
  return template;
}

export function proxy(request: NextRequest): NextResponse {
  const nonce = newNonce();
  const requestId = acceptOrCreateRequestId(request.headers.get(REQUEST_ID_HEADER));
  const { headers: parts, appOrigin } = headerTemplate();
  const headers: Record<string, string> = {};
  for (const [name, pieces] of parts) headers[name] = pieces.length === 1 ? pieces[0]! : pieces.join(nonce);

  // Every state-changing route at once (sign-out, server actions, forms). SameSite=Lax keeps the cookie off other
  // sites' POSTs, but not off a sibling subdomain's, which may be someone else's app.
  if (!isSafeMethod(request.method) && isCrossSiteRequest(request.headers, appOrigin)) {
    const locale = resolveLocale({
      cookie: request.cookies.get(LOCALE_COOKIE)?.value,
      acceptLanguage: request.headers.get("accept-language"),
      fallback: env.DEFAULT_LOCALE,
    });
    const refusal = new NextResponse(crossSiteRefusal(locale), {
      status: 403,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
    for (const [name, value] of Object.entries(headers)) refusal.headers.set(name, value);
    refusal.headers.set(REQUEST_ID_HEADER, requestId);
    return refusal;
  }

  const requestHeaders = new Headers(request.headers);
  requestHeaders.set(REQUEST_PATH_HEADER, `${request.nextUrl.pathname}${request.nextUrl.search}`);
  requestHeaders.set(NONCE_HEADER, nonce);
  requestHeaders.set(REQUEST_ID_HEADER, requestId);
  // Next takes the nonce for its own scripts from the policy on the request.
  requestHeaders.set("Content-Security-Policy", headers["Content-Security-Policy"] as string);

  const response = NextResponse.next({ request: { headers: requestHeaders } });
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  response.headers.set(REQUEST_ID_HEADER, requestId);
  return response;
}

export const config = {
  matcher: [
    {
      /*
       * Everything but static assets and the webhook route: the platform's deliveries need the raw body and a
       * fast 2xx, and gain nothing from browser headers. Prefetches are matched too: a prefetched answer can be
       * shown as the page, so it carries the same policy and framing headers.
       */
      source: "/((?!api/webhooks|_next/static|_next/image|favicon.ico|robots.txt).*)",
    },
  ],
};
