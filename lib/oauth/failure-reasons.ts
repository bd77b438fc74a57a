/**
 * Why an install did not complete, as a short code carried in the failure page's query string. Only the code
 * travels: the page looks its text up in the message catalogue (InstallFailed.reason.<code>), so nothing the
 * platform or an attacker sent is ever echoed back.
 */
export const FAILURE_REASONS = [
  "access_denied",
  "invalid_scope",
  "invalid_request",
  "unsupported_response_type",
  "authorize_error",
  "missing_state",
  "state_mismatch",
  "expired",
  "missing_code",
  "invalid_grant",
  "no_store_installed",
  "invalid_client",
  "unsupported_grant_type",
  "server_error",
  "rate_limited",
  "blocked",
  "network",
  "protocol",
  "store_failed",
] as const;

export type FailureReason = (typeof FAILURE_REASONS)[number];

export function isFailureReason(value: unknown): value is FailureReason {
  return typeof value === "string" && (FAILURE_REASONS as readonly string[]).includes(value);
}

/** The catalogue keys for a reason code from a query string; anything unknown gets the generic text. */
export function describeFailure(value: unknown): { reason: FailureReason | null; titleKey: string; detailKey: string } {
  const reason = isFailureReason(value) ? value : null;
  const base = `InstallFailed.reason.${reason ?? "unknown"}`;
  return { reason, titleKey: `${base}.title`, detailKey: `${base}.detail` };
}
