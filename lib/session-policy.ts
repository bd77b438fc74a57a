import { createHash, randomBytes } from "node:crypto";

/**
 * The rules a session lives by, as plain functions of the session's times and a clock, so each boundary can be
 * tested exactly. A session opens customers' names, phones and addresses: the limits follow OWASP ASVS 4.0 level 2
 * (V3.3.2: re-authentication after 30 minutes idle or 12 hours at most). Signing in again is one consent screen.
 */

/** No request for this long ends the session. */
export const IDLE_TIMEOUT_MS = 30 * 60 * 1000;
/** However active, a session ends this long after the consent that opened it. */
export const ABSOLUTE_LIFETIME_MS = 12 * 60 * 60 * 1000;
/**
 * last_seen_at is written at most this often: reading pages must not mean a database write per request. The
 * idle timeout can therefore end a session up to this much early, never late.
 */
export const TOUCH_INTERVAL_MS = 60 * 1000;

export type SessionTimes = { createdAt: Date; lastSeenAt: Date };

export type SessionVerdict = "active" | "idle_expired" | "lifetime_expired";

/**
 * Active while both limits hold. At exactly the limit the session is over: a limit of 30 minutes allows
 * 29:59.999. A creation time in the future (a clock moved back, another instance ahead) is not trusted either.
 */
export function sessionVerdict(session: SessionTimes, now: Date): SessionVerdict {
  const age = now.getTime() - session.createdAt.getTime();
  if (age >= ABSOLUTE_LIFETIME_MS || age < -TOUCH_INTERVAL_MS) return "lifetime_expired";
  if (now.getTime() - session.lastSeenAt.getTime() >= IDLE_TIMEOUT_MS) return "idle_expired";
  return "active";
}

/**
 * A store is open in a session only while the consent that first granted it is younger than the absolute
 * lifetime: grants later than this instant. A store carried into a new session by a later consent keeps its grant
 * time, so no chain of consents keeps it open past 12 hours from its grant.
 */
export function grantCutoff(now: Date): Date {
  return new Date(now.getTime() - ABSOLUTE_LIFETIME_MS);
}

/** Whether this request should move last_seen_at (once per TOUCH_INTERVAL_MS, not on every request). */
export function shouldTouch(session: SessionTimes, now: Date): boolean {
  return now.getTime() - session.lastSeenAt.getTime() >= TOUCH_INTERVAL_MS;
}

/**
 * Seconds the session cookie (and its seal) may live: twice the absolute lifetime. Past 12 hours the session it names
 * opens nothing (the server refuses it), but a cookie still presented lets this browser be told "your session has
 * ended" on a store page rather than meet a bare 404 (lib/lost-access.ts). The second 12 hours match how long an
 * ended session's stores are remembered (lib/webhooks/retention.ts keeps ended_grants 12 hours).
 */
export const SESSION_COOKIE_TTL_SECONDS = (2 * ABSOLUTE_LIFETIME_MS) / 1000;

/** 32 random bytes: the secret the sealed cookie carries. */
export function newSessionSecret(): string {
  return randomBytes(32).toString("base64url");
}

/** The database key of a session: SHA-256 of its secret, so the table alone opens nothing. */
export function sessionIdOf(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/** A secret as newSessionSecret writes it (43 base64url characters); anything else in a cookie is ignored. */
export function isSessionSecret(value: unknown): value is string {
  return typeof value === "string" && /^[A-Za-z0-9_-]{43}$/.test(value);
}
