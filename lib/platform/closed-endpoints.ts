import "server-only";
import { PlatformError } from "./errors";

/**
 * Endpoints an install token can never use. Refusing them here saves a call that would count against the rate
 * limit and only come back 403, and gives the developer a message that says why.
 */
const CLOSED: { test: (path: string, method: string) => boolean; reason: string }[] = [
  {
    test: (path) => path === "/v1/keys" || path.startsWith("/v1/keys/"),
    reason: "API keys belong to the merchant; apps cannot read or manage them",
  },
  {
    test: (path) => path === "/v1/webhooks" || path.startsWith("/v1/webhooks/"),
    reason: "the app's webhook is configured once in the developer console, not through the API",
  },
  {
    test: (path) => path === "/v1/changes" || path.startsWith("/v1/changes/"),
    reason: "the change log and undo stay with the merchant",
  },
  {
    test: (path) => path === "/v1/landing-pages/generate",
    reason: "it needs the ai:generate scope, which apps cannot request (it spends the merchant's AI credits)",
  },
];

/**
 * The path as the platform will route it: query dropped, dot segments resolved, percent-escapes decoded, repeated
 * and trailing slashes removed, lower-cased. Comparing this form keeps `/v1//Keys/` or `/v1/x/../keys` from slipping by.
 */
export function canonicalPath(path: string): string {
  const resolve = (value: string) => new URL(value.replace(/\/{2,}/g, "/"), "http://platform.invalid").pathname;
  let decoded = resolve(path);
  try {
    // Resolve again after decoding: `%2e%2e` is a dot segment once the server has decoded it.
    decoded = resolve(decodeURIComponent(decoded));
  } catch {
    // A malformed escape is compared as written; the platform will refuse it anyway.
  }
  const trimmed = decoded.replace(/\/+$/, "");
  return (trimmed === "" ? "/" : trimmed).toLowerCase();
}

/** Throws a local PlatformError (no network call) when the operation is closed to apps. */
export function assertOpenEndpoint(method: string, path: string): void {
  const canonical = canonicalPath(path);
  const closed = CLOSED.find((rule) => rule.test(canonical, method.toUpperCase()));
  if (closed) {
    throw new PlatformError({
      kind: "local",
      status: null,
      code: "closed_endpoint",
      message: `Apps cannot use ${method.toUpperCase()} ${canonical}: ${closed.reason}.`,
    });
  }
}
