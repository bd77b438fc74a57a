import type { Db, DbOrTx } from "@/db/client";
import { deleteSessionChain, deleteSessionsHoldingStore, findSession, openSession } from "@/db/queries/sessions";
import { ABSOLUTE_LIFETIME_MS, grantCutoff, newSessionSecret, sessionIdOf, sessionVerdict } from "@/lib/session-policy";
import { observeSignIn, sessionsEnded } from "@/lib/observability/sessions";

/**
 * What signing in and out does to the sessions table, free of cookies (lib/session.ts carries the secret to and
 * from the browser), so every path can be tested against a real database with a chosen clock.
 */

/**
 * After a consent: a new session (new secret, new id) holding the stores just chosen. A live session of the same
 * browser (`previousId`) hands over its stores with their grant times and ends, so adding a store never loses the
 * others nor extends them; an expired one hands over nothing. The replacement is remembered for as long as the old
 * cookie can be presented, so signing out with it ends the new session too (a copied cookie used to consent again
 * dies with the merchant's sign-out). Sessions of other browsers are untouched: consenting on a phone leaves the
 * laptop signed in.
 */
export async function signIn(
  db: Db,
  input: { previousId: string | null; storeIds: readonly number[]; now: Date },
): Promise<{ secret: string; id: string }> {
  const previous = input.previousId ? await findSession(db, input.previousId) : null;
  const carry = previous !== null && sessionVerdict(previous, input.now) === "active";
  // A cookie of no live session: expired (deleted now), or replaced by a consent made with a copy of it in
  // another browser (this browser never saw the replacing cookie). Either way the sessions that replaced it end.
  if (!carry && input.previousId) await deleteSessionChain(db, input.previousId, input.now);
  const secret = newSessionSecret();
  const id = sessionIdOf(secret);
  const replacing =
    // Stryker disable next-line LogicalOperator: equivalent: without carry the previous session was ended just above, so none of its stores is left to carry
    carry && previous && input.previousId
      ? {
          id: input.previousId,
          grantedAfter: grantCutoff(input.now),
          rememberUntil: new Date(previous.createdAt.getTime() + ABSOLUTE_LIFETIME_MS),
        }
      : null;
  const replaced = await db.transaction(async (tx) => {
    const opened = await openSession(tx, { id, now: input.now, storeIds: input.storeIds, replacing });
    // The previous session went between the read above and openSession's lock: a sign-out, or another consent made
    // with the same cookie that won the lock. The outcome is the one of a consent arriving just after it: nothing is
    // carried, and the sessions that replaced it end (this browser will hold a session outside their chain, so a
    // sign-out here could no longer reach them).
    if (replacing && !opened.replaced) await deleteSessionChain(tx, replacing.id, input.now);
    return opened.replaced;
  });
  // A previous session that another request ended is counted by that request.
  observeSignIn(previous === null ? null : carry ? (replaced ? "replaced" : null) : sessionVerdict(previous, input.now));
  return { secret, id };
}

/**
 * Sign out: the session ends on the server, so a copy of the cookie opens nothing either, and so does every session
 * that replaced it by a later consent (a copy of this cookie may have been used to consent again). Their stores are
 * remembered as signed out of, so this browser is told so on their pages (lib/lost-access.ts).
 */
export async function signOut(db: DbOrTx, id: string | null, now: Date = new Date()): Promise<boolean> {
  // Stryker disable next-line ConditionalExpression: equivalent: a chain from no id ends nothing and answers false too (tested)
  return id === null ? false : sessionsEnded("signed_out", await deleteSessionChain(db, id, now));
}

/** Sign out everywhere for one store: every session holding it ends, this browser's included. */
export async function signOutEverywhere(db: DbOrTx, storeId: number): Promise<number> {
  return sessionsEnded("signed_out_everywhere", await deleteSessionsHoldingStore(db, storeId));
}
