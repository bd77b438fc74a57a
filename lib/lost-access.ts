import "server-only";
import { cache } from "react";
import type { DbOrTx } from "@/db/client";
import { getDb } from "@/lib/database/app-database";
import { findEndedGrant, findEndedGrants, findSessionInstalls, findSessionStoreAccess, type GrantEndReason, type SessionInstall } from "@/db/queries/sessions";
import { closedInstallStates, isClosed, type ClosedInstallState } from "@/lib/installs/state";
import { currentSessionId } from "@/lib/session";
import { heldStore } from "@/lib/tenancy";
import { sessionVerdict } from "@/lib/session-policy";
import { parseStoreId } from "@/lib/sections";

/**
 * Why this browser can no longer open a store it held, so the page can say so instead of a bare 404. Only the
 * browser whose session cookie held the store is told anything: any other browser (no cookie, or a session that
 * never held it) gets null, and with it the same 404 as a store that does not exist, so ids cannot be probed.
 */

export type LostAccessReason =
  /**
   * The platform cut the app off from the store, named by the install's state: "uninstalled" (the merchant
   * uninstalled the app) or "revoked" (the platform revoked its token). Only installing it again helps.
   */
  | ClosedInstallState
  /** This browser signed out. */
  | "signed_out"
  /** Someone signed out of this store on every device, from this browser or another. */
  | "signed_out_everywhere"
  /** The session ran past its idle timeout or its lifetime. */
  | "expired";

export type LostAccess = {
  storeId: number;
  storeName: string;
  reason: LostAccessReason;
  /** When it happened, when known (an uninstall's time as the platform sent it). */
  at: Date | null;
};

/** The store is closed for good: the fix is a new install, not signing in (lib/installs/state.ts decides which). */
export function isClosedStore(reason: LostAccessReason): reason is ClosedInstallState {
  return isClosed(reason);
}

/** A closed install's reason and time (an uninstall's time as the platform sent it), or null for an open one. */
function closedStore(install: SessionInstall): { reason: ClosedInstallState; at: Date } | null {
  return isClosed(install.state) ? { reason: install.state, at: install.uninstalledAt ?? install.stateChangedAt } : null;
}

/** The explanation as a plain function of what the database holds, testable with any clock. */
export async function explainLostAccess(
  db: DbOrTx,
  sessionId: string | null,
  storeIdParam: string,
  now: Date,
): Promise<LostAccess | null> {
  const storeId = parseStoreId(storeIdParam);
  if (storeId === null || sessionId === null) return null;
  const live = await findSessionStoreAccess(db, sessionId, storeId);
  const install = live?.install;
  if (live && install) {
    const base = { storeId, storeName: install.storeName };
    // The session still holds the store: the page is refused for the install's state or the session's age.
    const closed = closedStore(install);
    if (closed) return { ...base, ...closed };
    if (sessionVerdict(live.session, now) !== "active") return { ...base, reason: "expired", at: null };
    return null;
  }
  const ended = await findEndedGrant(db, sessionId, storeId);
  if (!ended) return null;
  const base = { storeId, storeName: ended.install.storeName };
  // The store's state now wins over how the hold ended: signing in opens nothing on a store the app left.
  const closed = closedStore(ended.install);
  if (closed) return { ...base, ...closed };
  return { ...base, reason: endedReason(ended.reason), at: ended.endedAt };
}

/** A store closed then installed again (from another browser): signing in is the fix, as after a sign-out. */
function endedReason(reason: GrantEndReason): LostAccessReason {
  return reason === "store_closed" ? "signed_out" : reason;
}

/**
 * Every store this browser's session (live or ended) lost, latest first, except those it holds again: the list of
 * stores names them instead of dropping them silently. Empty for a browser without a session cookie. A session
 * found expired by this very request is written off only after the response, so its stores are named here from the
 * session itself: the first page after the limit already says so.
 */
export async function lostStores(
  db: DbOrTx,
  sessionId: string | null,
  held: readonly number[],
  now: Date = new Date(),
): Promise<LostAccess[]> {
  if (sessionId === null) return [];
  const [ended, live] = await Promise.all([findEndedGrants(db, sessionId), findSessionInstalls(db, sessionId, { closedStates: closedInstallStates() })]);
  const expired: LostAccess[] =
    live && sessionVerdict(live.session, now) !== "active"
      ? live.installs.map((install) => ({ storeId: install.storeId, storeName: install.storeName, reason: "expired", at: null }))
      : [];
  const endedLost = ended.map((grant): LostAccess => {
    const base = { storeId: grant.install.storeId, storeName: grant.install.storeName };
    return { ...base, ...(closedStore(grant.install) ?? { reason: endedReason(grant.reason), at: grant.endedAt }) };
  });
  return [...expired, ...endedLost].filter((lost) => !held.includes(lost.storeId));
}

/**
 * The explanation for this browser's cookie, once per request and store. A store the guard lets through (heldStore,
 * from the request's own session lookup, which the store shell has already made) is answered with no query: a live
 * session holding an open install is exactly the case explainLostAccess answers null.
 */
export const lostAccess = cache(async (storeIdParam: string): Promise<LostAccess | null> => {
  const sessionId = await currentSessionId();
  if (sessionId === null) return null;
  if (await heldStore(storeIdParam)) return null;
  return explainLostAccess(await getDb(), sessionId, storeIdParam, new Date());
});
