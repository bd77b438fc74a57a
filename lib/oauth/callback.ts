import { timingSafeEqual } from "node:crypto";
import type { FailureReason } from "./failure-reasons";
import { INSTALL_ATTEMPT_TTL_SECONDS, type InstallAttempt } from "./pkce";

export type CallbackCheck =
  | { ok: true; code: string; codeVerifier: string }
  | { ok: false; reason: FailureReason };

/** The platform's codes are 64 hex characters; anything else is not worth a token request. */
const CODE_SHAPE = /^[0-9a-f]{64}$/i;

/** A little tolerance for clocks of several app instances behind one load balancer. */
const CLOCK_SKEW_MS = 60_000;

// A Map, not an object literal: `error` comes from the query string, and "constructor" must not find Object's.
const AUTHORIZE_ERRORS = new Map<string, FailureReason>([
  ["access_denied", "access_denied"],
  ["invalid_scope", "invalid_scope"],
  ["invalid_request", "invalid_request"],
  ["unsupported_response_type", "unsupported_response_type"],
]);

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Decides, before any network call, whether a callback may be exchanged. The attempt is the one this browser
 * started (null when none is in progress: never started, expired, or already used by an earlier callback).
 */
export function checkCallback(params: URLSearchParams, attempt: InstallAttempt | null, now: number = Date.now()): CallbackCheck {
  const state = params.get("state");
  const error = params.get("error");

  if (error !== null) {
    // An error answer changes nothing, but one carrying somebody else's state is a forgery, not a denial.
    if (state && attempt && !sameSecret(state, attempt.state)) return { ok: false, reason: "state_mismatch" };
    return { ok: false, reason: AUTHORIZE_ERRORS.get(error) ?? "authorize_error" };
  }

  if (!state) return { ok: false, reason: "missing_state" };
  if (!attempt) return { ok: false, reason: "expired" };
  if (!sameSecret(state, attempt.state)) return { ok: false, reason: "state_mismatch" };

  const age = now - attempt.startedAt;
  if (age > INSTALL_ATTEMPT_TTL_SECONDS * 1000 || age < -CLOCK_SKEW_MS) return { ok: false, reason: "expired" };

  const code = params.get("code");
  if (!code || !CODE_SHAPE.test(code)) return { ok: false, reason: "missing_code" };

  return { ok: true, code, codeVerifier: attempt.codeVerifier };
}
