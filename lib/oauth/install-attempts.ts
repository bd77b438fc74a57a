import { timingSafeEqual } from "node:crypto";
import { INSTALL_ATTEMPT_TTL_SECONDS, type InstallAttempt } from "@/lib/oauth/pkce";
import { safeReturnPath } from "@/lib/oauth/return-path";

/**
 * The install attempts this browser has in progress, as its sealed attempt cookie holds them. Several may be open
 * at once (two tabs, or a link from the platform while a consent screen is open), and each callback takes only the
 * attempt whose `state` it carries: a navigation from another site can neither replace nor spend an attempt the
 * merchant started.
 */

export type PendingAttempt = InstallAttempt & {
  /** The store page to open after the consent (lib/oauth/return-path.ts), when the merchant was signing in to one. */
  returnTo: string | null;
};

/** Enough for a few tabs; small enough that the sealed cookie stays far below browsers' 4 kB. */
export const MAX_PENDING_ATTEMPTS = 4;

function isAttempt(value: unknown): value is PendingAttempt {
  if (typeof value !== "object" || value === null) return false;
  const { state, codeVerifier, startedAt } = value as Record<string, unknown>;
  return typeof state === "string" && typeof codeVerifier === "string" && typeof startedAt === "number";
}

/** The cookie's attempts that the platform would still honour, oldest first. Anything else in it is dropped. */
export function liveAttempts(stored: unknown, now: number): PendingAttempt[] {
  if (!Array.isArray(stored)) return [];
  return stored
    .filter(isAttempt)
    // Only the old end is cut here: an attempt from a clock slightly ahead is callback.ts's to judge.
    .filter((attempt) => now - attempt.startedAt < INSTALL_ATTEMPT_TTL_SECONDS * 1000)
    .map((attempt) => ({ ...attempt, returnTo: safeReturnPath(attempt.returnTo) }))
    .sort((a, b) => a.startedAt - b.startedAt);
}

function sameState(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export type AddAttemptResult = { added: true; attempts: PendingAttempt[] } | { added: false; attempts: PendingAttempt[] };

/**
 * Adds a new attempt. When the cookie is full, the oldest attempt makes room only for a request the merchant made
 * on this app (same origin, or typed); another site's navigation is turned away instead, so it cannot push out
 * an attempt in progress.
 */
export function addAttempt(current: readonly PendingAttempt[], attempt: PendingAttempt, crossSite: boolean): AddAttemptResult {
  if (current.length < MAX_PENDING_ATTEMPTS) return { added: true, attempts: [...current, attempt] };
  if (crossSite) return { added: false, attempts: [...current] };
  return { added: true, attempts: [...current.slice(current.length - MAX_PENDING_ATTEMPTS + 1), attempt] };
}

/**
 * The attempt a callback answers, found by its `state`, and the attempts left once it is spent. A callback whose
 * state matches none spends nothing; it is checked against the newest attempt, so it is refused as a state
 * mismatch (or as expired when none is in progress).
 */
export function takeAttempt(
  current: readonly PendingAttempt[],
  state: string | null,
): { attempt: PendingAttempt | null; matched: boolean; rest: PendingAttempt[] } {
  const index = state === null ? -1 : current.findIndex((attempt) => sameState(attempt.state, state));
  if (index === -1) return { attempt: current.at(-1) ?? null, matched: false, rest: [...current] };
  return { attempt: current[index] ?? null, matched: true, rest: current.filter((_, i) => i !== index) };
}
