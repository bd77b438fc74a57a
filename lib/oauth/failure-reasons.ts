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
  /** This client address spent its callbacks or installs for the window (lib/oauth/install-budget.ts). */
  "too_many_attempts",
  /** The app's own token budget is spent: a waiting page, no token call made. */
  "platform_busy",
] as const;

export type FailureReason = (typeof FAILURE_REASONS)[number];

export function isFailureReason(value: unknown): value is FailureReason {
  return (FAILURE_REASONS as readonly unknown[]).includes(value);
}

/** Reasons whose text says how many minutes to wait (`minutes` in the failure page's query string). */
const WAITING_REASONS: readonly FailureReason[] = ["too_many_attempts", "platform_busy"];

/** The longest wait any budget asks for: its ten-minute window. */
const MAX_WAIT_MINUTES = 10;

/** The failure page's address for a reason, with the minutes to wait when the reason has them. */
export function failurePath(reason: FailureReason, minutes?: number): string {
  const wait = minutes === undefined ? "" : `&minutes=${Math.min(MAX_WAIT_MINUTES, Math.max(1, Math.ceil(minutes)))}`;
  return `/install/failed?reason=${reason}${wait}`;
}

/**
 * The catalogue keys for a reason code from a query string; anything unknown gets the generic text. A waiting
 * reason also gets its minutes, read as a whole number from 1 to 10 (anything else in the query says 10).
 */
export function describeFailure(
  value: unknown,
  minutesValue?: unknown,
): { reason: FailureReason | null; titleKey: string; detailKey: string; minutes: number } {
  const reason = isFailureReason(value) ? value : null;
  const base = `InstallFailed.reason.${reason ?? "unknown"}`;
  const asked = /^[1-9][0-9]?$/.test(String(minutesValue)) ? Number(minutesValue) : MAX_WAIT_MINUTES;
  const minutes = (WAITING_REASONS as readonly (FailureReason | null)[]).includes(reason) ? Math.min(asked, MAX_WAIT_MINUTES) : 0;
  return { reason, titleKey: `${base}.title`, detailKey: `${base}.detail`, minutes };
}
