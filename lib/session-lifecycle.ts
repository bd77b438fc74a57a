import type { Db, DbOrTx } from "@/db/client";
import { deleteSession, deleteSessionsHoldingStore, endSessionFor, findSession, openSession } from "@/db/queries/sessions";
import { newSessionSecret, sessionIdOf, sessionVerdict } from "@/lib/session-policy";
import { observeSignIn, sessionsEnded } from "@/lib/observability/sessions";

/**
 * What signing in and out does to the sessions table, free of cookies (lib/session.ts carries the secret to and
 * from the browser), so every path can be tested against a real database with a chosen clock.
 */

/**
 * After a consent: a new session (new secret, new id) holding the stores just chosen. A live session of the same
 * browser (`previousId`) hands over its stores and ends, so adding a store never loses the others; an expired one
 * hands over nothing. Sessions of other browsers are untouched: consenting on a phone leaves the laptop signed in.
 */
export async function signIn(
  db: Db,
  input: { previousId: string | null; storeIds: readonly number[]; now: Date },
): Promise<{ secret: string; id: string }> {
  const previous = input.previousId ? await findSession(db, input.previousId) : null;
  const carry = previous !== null && sessionVerdict(previous, input.now) === "active";
  if (previous && !carry && input.previousId) await deleteSession(db, input.previousId);
  const secret = newSessionSecret();
  const id = sessionIdOf(secret);
  await openSession(db, { id, now: input.now, storeIds: input.storeIds, replacing: carry ? input.previousId : null });
  observeSignIn(previous === null ? null : carry ? "replaced" : sessionVerdict(previous, input.now));
  return { secret, id };
}

/**
 * Sign out: the session ends on the server, so a copy of the cookie opens nothing either. Its stores are
 * remembered as signed out of, so this browser is told so on their pages (lib/lost-access.ts).
 */
export async function signOut(db: DbOrTx, id: string | null, now: Date = new Date()): Promise<boolean> {
  return id === null ? false : sessionsEnded("signed_out", await endSessionFor(db, id, "signed_out", now));
}

/** Sign out everywhere for one store: every session holding it ends, this browser's included. */
export async function signOutEverywhere(db: DbOrTx, storeId: number): Promise<number> {
  return sessionsEnded("signed_out_everywhere", await deleteSessionsHoldingStore(db, storeId));
}
