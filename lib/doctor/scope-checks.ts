import { lackingScopes, NEEDED_SCOPES } from "@/lib/installs/scopes";
import type { RawEnv } from "./env-checks";
import type { CheckResult } from "./types";

/**
 * SVC_SCOPES against what the app's sections and order sync need (lib/installs/scopes.ts). A needed scope left out
 * of the list is never asked for, so the stores that lack it keep its sections locked, and the banner's consent
 * cannot clear it: refused. Unset asks for every scope registered on the app, which the doctor cannot see.
 */
export function checkRequestedScopes(raw: RawEnv): CheckResult {
  const base = { id: "scopes.requested", title: "Requested scopes" };
  const requested = raw.SVC_SCOPES?.trim();
  if (!requested) {
    return { ...base, status: "pass", detail: "SVC_SCOPES unset: the consent asks for every scope registered on the app" };
  }
  const missing = lackingScopes(requested.split(/\s+/), NEEDED_SCOPES);
  if (missing.length === 0) return { ...base, status: "pass", detail: `asks for every scope the app needs (${NEEDED_SCOPES.join(" ")})` };
  return {
    ...base,
    status: "fail",
    detail: `SVC_SCOPES lacks ${missing.join(", ")}, which the app's sections or order sync need: no store can grant it, so what needs it stays locked`,
    fix: `add ${missing.join(" ")} to SVC_SCOPES (and register it on the app in the developer console), or unset SVC_SCOPES`,
  };
}
