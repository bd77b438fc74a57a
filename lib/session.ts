import "server-only";
import { getIronSession, type IronSession, type SessionOptions } from "iron-session";
import { cookies } from "next/headers";
import { env } from "@/lib/env";
import { INSTALL_ATTEMPT_TTL_SECONDS, type InstallAttempt } from "@/lib/oauth/pkce";

/**
 * Two sealed (encrypted and signed) cookies. The session remembers which stores this browser's merchant installed
 * the app on; the install attempt holds the PKCE verifier and state of an install in progress and lives only as
 * long as the platform's consent request (10 minutes), so an abandoned attempt disappears by itself.
 */

export type SessionData = { storeIds: number[] };

const SESSION_TTL_SECONDS = 30 * 24 * 60 * 60;
// iron-session sets the cookie's max-age to ttl - 60 s; this keeps the attempt cookie at exactly 10 minutes.
const ATTEMPT_TTL_SECONDS = INSTALL_ATTEMPT_TTL_SECONDS + 60;

function cookieOptions(): SessionOptions["cookieOptions"] {
  return {
    httpOnly: true,
    secure: env.NODE_ENV === "production",
    sameSite: "lax",
    path: "/",
  };
}

export function sessionOptions(): SessionOptions {
  return { cookieName: "app_session", password: env.SESSION_SECRET, ttl: SESSION_TTL_SECONDS, cookieOptions: cookieOptions() };
}

export function installAttemptOptions(): SessionOptions {
  return { cookieName: "app_install", password: env.SESSION_SECRET, ttl: ATTEMPT_TTL_SECONDS, cookieOptions: cookieOptions() };
}

/** The browser's session. Readable anywhere on the server; save() and destroy() only in route handlers and actions. */
export async function getSession(): Promise<IronSession<SessionData>> {
  const session = await getIronSession<Partial<SessionData>>(await cookies(), sessionOptions());
  if (!Array.isArray(session.storeIds)) session.storeIds = [];
  return session as IronSession<SessionData>;
}

export async function getInstallAttemptCookie(): Promise<IronSession<Partial<InstallAttempt>>> {
  return getIronSession<Partial<InstallAttempt>>(await cookies(), installAttemptOptions());
}

/** The attempt in progress, or null when there is none (never started, expired, or already used). */
export function attemptFrom(cookie: Partial<InstallAttempt>): InstallAttempt | null {
  const { state, codeVerifier, startedAt } = cookie;
  if (typeof state !== "string" || typeof codeVerifier !== "string" || typeof startedAt !== "number") return null;
  return { state, codeVerifier, startedAt };
}

/** Store ids after adding newly installed ones, without duplicates, in the order they were first seen. */
export function mergeStoreIds(current: readonly number[], added: readonly number[]): number[] {
  return [...new Set([...current, ...added])];
}
