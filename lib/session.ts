import "server-only";
import { getIronSession, unsealData, type IronSession, type SessionOptions } from "iron-session";
import { cookies } from "next/headers";
import { after } from "next/server";
import { cache } from "react";
import type { Db } from "@/db/client";
import { getDb } from "@/lib/database/app-database";
import { endSessionFor, findSessionInstalls, touchSession, type SessionInstall } from "@/db/queries/sessions";
import type { OrderBackfill } from "@/db/schema";
import { env } from "@/lib/env";
import { closedInstallStates } from "@/lib/installs/state";
import { log } from "@/lib/log";
import { sessionsEnded } from "@/lib/observability/sessions";
import { INSTALL_ATTEMPT_TTL_SECONDS } from "@/lib/oauth/pkce";
import { INSTALLED_BEFORE_TTL_SECONDS, installedBeforeStores, returningProof, sealInstalledBefore } from "@/lib/oauth/returning-merchant";
import { signIn, signOut, signOutEverywhere } from "@/lib/session-lifecycle";
import {
  grantCutoff,
  isSessionSecret,
  SESSION_COOKIE_TTL_SECONDS,
  sessionIdOf,
  sessionVerdict,
  shouldTouch,
} from "@/lib/session-policy";

/**
 * Two cookies. The session cookie is a random secret and nothing else; the session itself (its stores, its times)
 * lives in the database under the secret's hash, so the server can end it, and a cookie opens something only if its
 * hash is a live session's id. Sealing it added nothing to that (a 256-bit random value cannot be guessed, and a
 * sealed copy is as good as the secret to whoever steals it) but cost a key derivation and a decryption on every
 * request. The install attempt cookie is sealed (encrypted and signed): it holds the PKCE verifier and state of an
 * install in progress and lives only as long as the platform's consent request (10 minutes), so an abandoned attempt
 * disappears by itself. A third, the sealed "installed before" cookie (lib/oauth/returning-merchant.ts), tells the
 * install budgets that this browser completed a consent before; it opens nothing.
 */

type SessionCookie = { sid?: unknown };

/** What the install attempts' cookie holds: the attempts in progress (lib/oauth/install-attempts.ts). */
export type InstallAttemptCookie = { attempts?: unknown };

// iron-session sets the cookie's max-age to ttl - 60 s; this keeps the attempt cookie at exactly 10 minutes.
const ATTEMPT_TTL_SECONDS = INSTALL_ATTEMPT_TTL_SECONDS + 60;

/**
 * Served over https (every real deploy: production refuses any other APP_URL but loopback), both cookies carry the
 * `__Host-` prefix: the browser then takes them only with Secure, Path=/ and no Domain, so no sibling subdomain
 * can plant or shadow one (a planted session would otherwise be merged into the victim's at the next consent).
 * Browsers refuse that prefix without https, so plain http://localhost development keeps the plain names.
 */
function servedOverHttps(): boolean {
  return env.APP_URL.startsWith("https://");
}

function cookieName(name: string): string {
  return servedOverHttps() ? `__Host-${name}` : name;
}

function cookieOptions(): SessionOptions["cookieOptions"] {
  return {
    httpOnly: true,
    secure: env.NODE_ENV === "production" || servedOverHttps(),
    sameSite: "lax",
    path: "/",
  };
}

export function sessionOptions(): SessionOptions {
  return { cookieName: cookieName("app_session"), password: env.SESSION_SECRET, ttl: SESSION_COOKIE_TTL_SECONDS, cookieOptions: cookieOptions() };
}

export function installAttemptOptions(): SessionOptions {
  return { cookieName: cookieName("app_install"), password: env.SESSION_SECRET, ttl: ATTEMPT_TTL_SECONDS, cookieOptions: cookieOptions() };
}

/**
 * The secret this browser's session cookie carries (anything, to be checked with isSessionSecret). A cookie sealed
 * by an earlier version of the app (iron-session) is still read, for as long as such a cookie can live.
 */
async function cookieSecret(): Promise<unknown> {
  const value = (await cookies()).get(sessionOptions().cookieName)?.value;
  if (!value || isSessionSecret(value)) return value;
  return (await unsealData<SessionCookie>(value, { password: env.SESSION_SECRET })).sid;
}

/** The session cookie as the browser keeps it: the secret, or "" with no lifetime to delete it. */
async function setSessionCookie(secret: string): Promise<void> {
  // The cookie's lifetime as iron-session set it for the sealed cookie: a minute short of the session's lifetime.
  const maxAge = secret ? SESSION_COOKIE_TTL_SECONDS - 60 : 0;
  (await cookies()).set(sessionOptions().cookieName, secret, { ...cookieOptions(), maxAge });
}

/** The database id of the session this browser's cookie names (null without one). Read once per request. */
export const currentSessionId = cache(async (): Promise<string | null> => {
  const sid = await cookieSecret();
  return isSessionSecret(sid) ? sessionIdOf(sid) : null;
});

/**
 * After the response: move last_seen_at (at most once a minute). A failure is logged, never shown: the answer was
 * already right without it.
 */
export function touchAfterRead(db: Db, id: string, now: Date): void {
  after(async () => {
    await touchSession(db, id, now).catch((error: unknown) => log.warn("session bookkeeping failed", { action: "touch", error }));
  });
}

/** After the response: delete a session found expired. A failure is logged, never shown, as for touchAfterRead. */
export function endAfterRead(db: Db, id: string, now: Date): void {
  after(async () => {
    await endSessionFor(db, id, "expired", now).catch((error: unknown) => log.warn("session bookkeeping failed", { action: "end", error }));
  });
}

/** backfills: the order import of each store in `installs` that has one, by store id (the store pages' notice). */
export type CurrentSession = { id: string; installs: SessionInstall[]; backfills: ReadonlyMap<number, OrderBackfill> };

/**
 * This browser's live session with the installs it may open, or null (no cookie, ended, or expired). One query,
 * once per request.
 */
export const currentSession = cache(async (): Promise<CurrentSession | null> => {
  const id = await currentSessionId();
  if (!id) return null;
  const db = await getDb();
  const now = new Date();
  const found = await findSessionInstalls(db, id, { closedStates: closedInstallStates(), grantedAfter: grantCutoff(now) });
  if (!found) return null;
  if (sessionVerdict(found.session, now) !== "active") {
    endAfterRead(db, id, now);
    sessionsEnded(sessionVerdict(found.session, now), true);
    return null;
  }
  if (shouldTouch(found.session, now)) touchAfterRead(db, id, now);
  return { id, installs: found.installs, backfills: found.backfills };
});

/** Route handlers only: a new session holding these stores (and the stores of this browser's live session). */
export async function startSession(db: Db, storeIds: readonly number[]): Promise<void> {
  const sid = await cookieSecret();
  const previousId = isSessionSecret(sid) ? sessionIdOf(sid) : null;
  const { secret } = await signIn(db, { previousId, storeIds, now: new Date() });
  await setSessionCookie(secret);
}

/** Route handlers only: ends this browser's session on the server. */
export async function endSession(db: Db): Promise<void> {
  const sid = await cookieSecret();
  const id = isSessionSecret(sid) ? sessionIdOf(sid) : null;
  await signOut(db, id);
  // A cookie naming a session stays: its secret opens nothing any more, but it lets this browser be told, on a store
  // page it bookmarked, that it signed out of that store (lib/lost-access.ts) rather than meet a bare 404.
  if (id === null) await setSessionCookie("");
}

/**
 * Route handlers only: ends every session that holds this store, on every device, this browser's included (the
 * caller has checked that this browser's session holds it). Returns how many sessions ended.
 */
export async function endSessionsHoldingStore(db: Db, storeId: number): Promise<number> {
  // The cookie stays, as after a sign-out (endSession).
  return signOutEverywhere(db, storeId);
}

export async function getInstallAttemptCookie(): Promise<IronSession<InstallAttemptCookie>> {
  return getIronSession<InstallAttemptCookie>(await cookies(), installAttemptOptions());
}

/** The "installed before" cookie (lib/oauth/returning-merchant.ts), `__Host-` over https like the others. */
function installedBeforeName(): string {
  return cookieName("app_installed");
}

/**
 * The key of the returning merchant's proof this browser presents (its "installed before" cookie, its live or
 * recently ended session), or null. A proof that cannot be read is no proof: the request gets the ordinary budgets.
 */
export async function browserReturningProof(db: Db): Promise<string | null> {
  try {
    const installedBefore = (await cookies()).get(installedBeforeName())?.value;
    return await returningProof(db, { installedBefore, sessionId: await currentSessionId(), password: env.SESSION_SECRET });
  } catch (error) {
    log.warn("returning merchant's proof unreadable", { error });
    return null;
  }
}

/** Route handlers only: after a consent installed `storeIds`, this browser keeps (or extends) its proof. */
export async function rememberInstalledStores(storeIds: readonly number[]): Promise<void> {
  const jar = await cookies();
  const previous = await installedBeforeStores(jar.get(installedBeforeName())?.value, env.SESSION_SECRET);
  const value = await sealInstalledBefore(storeIds, previous, env.SESSION_SECRET);
  jar.set(installedBeforeName(), value, { ...cookieOptions(), maxAge: INSTALLED_BEFORE_TTL_SECONDS - 60 });
}
