import { apiOk } from "./envelope";
import type { Operation } from "./types";

/** Paths an install token may never use, whatever its scopes. */
export function isClosedToApps(pathname: string): boolean {
  return /^\/v1\/(keys|webhooks|changes)(\/.*)?$/.test(pathname);
}

/**
 * Operations that exist only to show their scope rule: an app can never hold ai:generate, so the scope check
 * always answers first (the handler is unreachable for install tokens).
 */
export const scopeOnlyOperations: Operation[] = [
  {
    method: "POST",
    path: "/v1/landing-pages/generate",
    scope: "ai:generate",
    handler: (call) => apiOk(202, { queued: true }, call.requestId),
  },
];
