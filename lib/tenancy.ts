import "server-only";
import { notFound } from "next/navigation";
import { cache } from "react";
import type { DbOrTx } from "@/db/client";
import { findSessionStoreAccess, type SessionInstall } from "@/db/queries/sessions";
import { isClosed } from "@/lib/installs/state";
import { parseStoreId } from "@/lib/sections";
import { currentSession, type CurrentSession } from "@/lib/session";
import { grantCutoff, sessionVerdict, shouldTouch } from "@/lib/session-policy";

/**
 * The one guard for store-scoped pages, route handlers and actions: a store is reachable only through a live
 * session that holds it, while the platform has not cut the app off from it. Session, membership and install come
 * from one query. It answers 404 (the same as a store that does not exist, so ids cannot be probed) before anything
 * reaches the page, and before any platform call, so none is ever made for a store outside the session. (A page may
 * start its own database read beside it: the store-page frame's preload, whose rows reach the page only once the
 * guard has let the store through.)
 */

export type StoreAccess = { storeId: number; install: SessionInstall };

export type StoreRefusal =
  /** The URL's id is not a store id at all. */
  | "bad_store_id"
  /** No session: never signed in, signed out, or ended elsewhere. */
  | "signed_out"
  /** The session ran past its idle timeout or absolute lifetime. */
  | "session_expired"
  /** A live session that does not hold this store. */
  | "not_in_session"
  /** The session holds it, but the store was uninstalled or its token revoked. */
  | "store_closed";

export type StoreAccessDecision =
  | (StoreAccess & { ok: true; touch: boolean })
  | { ok: false; reason: StoreRefusal };

/** The guard's decision, free of cookies and of Next's notFound(), so it can be tested with any clock. */
export async function resolveStoreAccess(
  db: DbOrTx,
  sessionId: string | null,
  storeIdParam: string,
  now: Date,
): Promise<StoreAccessDecision> {
  const storeId = parseStoreId(storeIdParam);
  if (storeId === null) return { ok: false, reason: "bad_store_id" };
  if (sessionId === null) return { ok: false, reason: "signed_out" };
  const found = await findSessionStoreAccess(db, sessionId, storeId, grantCutoff(now));
  if (!found) return { ok: false, reason: "signed_out" };
  if (sessionVerdict(found.session, now) !== "active") return { ok: false, reason: "session_expired" };
  if (!found.install) return { ok: false, reason: "not_in_session" };
  if (isClosed(found.install.state)) return { ok: false, reason: "store_closed" };
  return { ok: true, storeId, install: found.install, touch: shouldTouch(found.session, now) };
}

/**
 * The install of a store this browser may open, or null: the guard's whole test, answered from the request's one
 * session lookup (currentSession: the session's open stores, an expired session ended, last_seen_at moved), which
 * the store shell reads too. For a page that must know what requireStore will answer without calling notFound()
 * itself (app/not-found.tsx, rendered with every page).
 */
export const heldStore = cache(async (storeIdParam: string): Promise<SessionInstall | null> =>
  installInSession(await currentSession(), storeIdParam),
);

/** heldStore's test on a session already read (a route handler reads it once and passes it on). */
export function installInSession(session: CurrentSession | null, storeIdParam: string): SessionInstall | null {
  // A malformed id parses to null, which no install's store id equals.
  const storeId = parseStoreId(storeIdParam);
  return session?.installs.find((row) => row.storeId === storeId) ?? null;
}

/** Calls notFound() for a store this browser may not open; otherwise the store and its install row (heldStore). */
export const requireStore = cache(async (storeIdParam: string): Promise<StoreAccess> => {
  const install = await heldStore(storeIdParam);
  if (!install) notFound();
  return { storeId: install.storeId, install };
});
