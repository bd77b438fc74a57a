/** The platform's retry schedule: minimum waits after each failed attempt, measured on the emulator's clock. */

export const MAX_ATTEMPTS = 5;
export const DISABLE_AFTER_CONSECUTIVE_FAILURES = 10;
export const DELIVERY_TIMEOUT_MS = 10_000;
export const VERIFY_TIMEOUT_MS = 6_000;
/** After uninstall the endpoint stays active this long so retries of the notice can finish. */
export const UNINSTALL_GRACE_MS = 24 * 60 * 60 * 1000;

/** Index n holds the wait after failed attempt n + 1; the 5th failure has no wait (the delivery is dead). */
export const RETRY_WAITS_SECONDS: readonly number[] = [60, 5 * 60, 30 * 60, 2 * 60 * 60];

/** Seconds to wait after the given failed attempt (1-based), or null when that failure makes the delivery dead. */
export function retryWaitSeconds(failedAttempt: number): number | null {
  if (failedAttempt >= MAX_ATTEMPTS) return null;
  return RETRY_WAITS_SECONDS[failedAttempt - 1] ?? null;
}
