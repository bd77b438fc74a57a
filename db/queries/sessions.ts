import { and, asc, eq, getTableColumns, gt, inArray, lt, lte, notInArray, or, sql, type SQL } from "drizzle-orm";
import { rowsOf, type Db, type DbOrTx } from "@/db/client";
import { endedGrants, installs, orderBackfills, sessionReplacements, sessions, sessionStores, type Install, type InstallState, type OrderBackfill } from "@/db/schema";
import { preparedPerDb } from "./prepared";

/**
 * Server-side sessions. Every function takes the session's database id (the hash of the cookie's secret), never a
 * cookie: lib/session.ts reads the cookie, lib/session-policy.ts decides what the times mean.
 */

export type SessionTimes = { createdAt: Date; lastSeenAt: Date };

/**
 * A store's install as a signed-in page reads it: the install row without its sealed token. Pages never call the
 * platform with what the session read (lib/platform/credentials.ts loads the token on its own), so the token's
 * ciphertext stays out of every page's request and cannot be handed to a client component by mistake.
 */
export type SessionInstall = Omit<Install, "tokenCiphertext" | "tokenKeyId">;

const { tokenCiphertext: _sealedToken, tokenKeyId: _tokenKey, ...sessionInstallColumns } = getTableColumns(installs);

/** The session a consent replaces: its stores granted after `grantedAfter` move over with their grant times. */
export type Replacing = { id: string; grantedAfter: Date; rememberUntil: Date };

/**
 * Opens a session holding `storeIds` (stores the merchant has just chosen on the consent screen, granted `now`)
 * and, when the browser already had a live session (`replacing`), its stores still within their grant's lifetime,
 * each with the time of the consent that first granted it (a later consent cannot stretch it). That older row is
 * deleted, so its id stops working (a new id at each sign-in), and the replacement is remembered until
 * `rememberUntil`, so a sign-out with the older cookie ends this session too. All or nothing.
 *
 * The replaced session is locked before anything is read from it. A sign-out (deleteSessionChain) or another
 * consent replacing the same session takes the same lock, so they run one after the other: the sign-out then finds
 * this session in the chain, and the later of two consents finds the session gone. A session gone by then (signed
 * out, expired, replaced by a consent that won the lock) hands over nothing and is not linked: `replaced` is false,
 * and lib/session-lifecycle.ts decides what follows.
 */
export async function openSession(
  db: Db | DbOrTx,
  input: { id: string; now: Date; storeIds: readonly number[]; replacing?: Replacing | null },
): Promise<{ replaced: boolean }> {
  const replacing = input.replacing ?? null;
  return db.transaction(async (tx) => {
    let carried: { storeId: number; grantedAt: Date }[] = [];
    let replaced = false;
    if (replacing) {
      const [held] = await tx.select({ id: sessions.id }).from(sessions).where(eq(sessions.id, replacing.id)).for("update");
      if (held) {
        carried = await tx
          .select({ storeId: sessionStores.storeId, grantedAt: sessionStores.grantedAt })
          .from(sessionStores)
          .where(and(eq(sessionStores.sessionId, replacing.id), gt(sessionStores.grantedAt, replacing.grantedAfter)));
        const deleted = await tx.delete(sessions).where(eq(sessions.id, replacing.id)).returning({ id: sessions.id });
        replaced = deleted.length > 0;
        // A safeguard: the lock above keeps the row until this transaction ends, so it is there to delete.
        if (!replaced) carried = [];
      }
    }
    await tx.insert(sessions).values({ id: input.id, createdAt: input.now, lastSeenAt: input.now });
    const grants = new Map<number, Date>(carried.map((row) => [row.storeId, row.grantedAt]));
    for (const storeId of input.storeIds) grants.set(storeId, input.now);
    if (grants.size > 0) {
      await tx
        .insert(sessionStores)
        .values([...grants].map(([storeId, grantedAt]) => ({ sessionId: input.id, storeId, grantedAt })))
        .onConflictDoNothing();
    }
    if (replacing && replaced) {
      await tx
        .insert(sessionReplacements)
        .values({ replacedId: replacing.id, replacingId: input.id, expiresAt: replacing.rememberUntil })
        // Under the lock no other consent can have linked this session: a link already there is never overwritten.
        .onConflictDoNothing();
    }
    return { replaced };
  });
}

export async function findSession(db: DbOrTx, id: string): Promise<SessionTimes | null> {
  const [row] = await db
    .select({ createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt })
    .from(sessions)
    .where(eq(sessions.id, id))
    .limit(1);
  return row ?? null;
}

/**
 * The guard's one query: the session's times and, when the session holds the store, its install row. Null when
 * there is no such session; `install` null when the session does not hold the store.
 */
export async function findSessionStoreAccess(
  db: DbOrTx,
  id: string,
  storeId: number,
  grantedAfter?: Date,
): Promise<{ session: SessionTimes; install: SessionInstall | null } | null> {
  const [row] = await db
    .select({ createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt, install: sessionInstallColumns })
    .from(sessions)
    .leftJoin(
      sessionStores,
      and(
        eq(sessionStores.sessionId, sessions.id),
        eq(sessionStores.storeId, storeId),
        grantedAfter ? gt(sessionStores.grantedAt, grantedAfter) : undefined,
      ),
    )
    .leftJoin(installs, eq(installs.storeId, sessionStores.storeId))
    .where(eq(sessions.id, id))
    .limit(1);
  if (!row) return null;
  return { session: { createdAt: row.createdAt, lastSeenAt: row.lastSeenAt }, install: row.install };
}

/** findSessionInstalls's query for one set of closed states, with or without a grant cutoff: built once per handle. */
const sessionInstallsQueries = new Map<string, (db: DbOrTx) => ReturnType<typeof buildSessionInstalls>>();

function buildSessionInstalls(db: DbOrTx, closedStates: readonly InstallState[], withCutoff: boolean) {
  return db
    .select({ createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt, install: sessionInstallColumns, backfill: orderBackfills })
    .from(sessions)
    .leftJoin(
      sessionStores,
      and(eq(sessionStores.sessionId, sessions.id), withCutoff ? gt(sessionStores.grantedAt, sql.placeholder("grantedAfter")) : undefined),
    )
    .leftJoin(
      installs,
      and(
        eq(installs.storeId, sessionStores.storeId),
        closedStates.length > 0 ? notInArray(installs.state, [...closedStates]) : undefined,
      ),
    )
    // Each open store's order import (its primary key, at most one row): the import notice every store page shows
    // comes with the session instead of from a statement of its own.
    .leftJoin(orderBackfills, eq(orderBackfills.storeId, installs.storeId))
    .where(eq(sessions.id, sql.placeholder("id")))
    .orderBy(asc(installs.storeName), asc(installs.storeId))
    .prepare("find_session_installs");
}

/**
 * The session's times and the installs of every store it holds whose state is not one of `closedStates` (the
 * stores the platform cut the app off from: lib/installs/state.ts closedInstallStates) and, with `grantedAfter`,
 * that were granted after it, by name, with those stores' order imports by store id. Every page asks
 * (lib/session.ts currentSession): a prepared query.
 */
export async function findSessionInstalls(
  db: DbOrTx,
  id: string,
  options: { closedStates: readonly InstallState[]; grantedAfter?: Date },
): Promise<{ session: SessionTimes; installs: SessionInstall[]; backfills: ReadonlyMap<number, OrderBackfill> } | null> {
  const { closedStates, grantedAfter } = options;
  const shape = `${grantedAfter ? "cutoff" : "all"}:${closedStates.join(",")}`;
  let query = sessionInstallsQueries.get(shape);
  if (!query) sessionInstallsQueries.set(shape, (query = preparedPerDb((handle) => buildSessionInstalls(handle, closedStates, Boolean(grantedAfter)))));
  const rows = await query(db).execute(grantedAfter ? { id, grantedAfter: grantedAfter.toISOString() } : { id });
  const first = rows[0];
  if (!first) return null;
  return {
    session: { createdAt: first.createdAt, lastSeenAt: first.lastSeenAt },
    installs: rows.flatMap((row) => (row.install ? [row.install] : [])),
    backfills: new Map(rows.flatMap((row) => (row.backfill ? [[row.backfill.storeId, row.backfill] as const] : []))),
  };
}

/** Moves last_seen_at forward (never back: two requests may finish out of order). */
export async function touchSession(db: DbOrTx, id: string, now: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ lastSeenAt: now })
    .where(and(eq(sessions.id, id), lt(sessions.lastSeenAt, now)));
}

/** Why a browser lost a store (see endedGrants in db/schema.ts). */
export type GrantEndReason = "signed_out" | "signed_out_everywhere" | "expired" | "store_closed";

/**
 * Remembers, for the session_stores rows `where` selects, why they ended and when; a later ending of the same
 * session and store replaces an earlier one. Run before the rows are deleted, in the same transaction.
 */
async function recordEndedGrants(db: DbOrTx, where: SQL | undefined, reason: GrantEndReason, now: Date): Promise<void> {
  await db.execute(sql`
    insert into ${endedGrants} (session_id, store_id, reason, ended_at)
    select ${sessionStores.sessionId}, ${sessionStores.storeId}, ${reason}, ${now.toISOString()}::timestamptz
    from ${sessionStores} where ${where}
    on conflict (session_id, store_id) do update set reason = excluded.reason, ended_at = excluded.ended_at`);
}

/** Ends one session as deleteSession does, remembering why for each store it held. */
export async function endSessionFor(db: DbOrTx, id: string, reason: GrantEndReason, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    await recordEndedGrants(tx, eq(sessionStores.sessionId, id), reason, now);
    return deleteSession(tx, id);
  });
}

/** The latest ending of this session's hold on this store, with the store's install row (null without either). */
export async function findEndedGrant(
  db: DbOrTx,
  sessionId: string,
  storeId: number,
): Promise<{ reason: GrantEndReason; endedAt: Date; install: Install } | null> {
  const [row] = await db
    .select({ reason: endedGrants.reason, endedAt: endedGrants.endedAt, install: installs })
    .from(endedGrants)
    .innerJoin(installs, eq(installs.storeId, endedGrants.storeId))
    .where(and(eq(endedGrants.sessionId, sessionId), eq(endedGrants.storeId, storeId)))
    .limit(1);
  return row ? { reason: row.reason as GrantEndReason, endedAt: row.endedAt, install: row.install } : null;
}

/** Every store this session lost, with why and its install row, latest first (the stores list names them). */
export async function findEndedGrants(
  db: DbOrTx,
  sessionId: string,
): Promise<{ reason: GrantEndReason; endedAt: Date; install: Install }[]> {
  const rows = await db
    .select({ reason: endedGrants.reason, endedAt: endedGrants.endedAt, install: installs })
    .from(endedGrants)
    .innerJoin(installs, eq(installs.storeId, endedGrants.storeId))
    .where(eq(endedGrants.sessionId, sessionId))
    .orderBy(sql`${endedGrants.endedAt} desc`, asc(installs.storeId));
  return rows.map((row) => ({ ...row, reason: row.reason as GrantEndReason }));
}

/** Forgets endings older than `before` (what `npm run data:purge` clears). Returns how many. */
export async function deleteEndedGrantsBefore(db: DbOrTx, before: Date): Promise<number> {
  const rows = await db.delete(endedGrants).where(lt(endedGrants.endedAt, before)).returning({ id: endedGrants.sessionId });
  return rows.length;
}

/** Ends one session: every copy of its cookie stops working. Returns whether a session was there. */
export async function deleteSession(db: DbOrTx, id: string): Promise<boolean> {
  const rows = await db.delete(sessions).where(eq(sessions.id, id)).returning({ id: sessions.id });
  return rows.length > 0;
}

/** The session `id` and every session that replaced it, however many consents later. */
async function chainOf(db: DbOrTx, id: string): Promise<string[]> {
  const result = await db.execute(sql`
    with recursive chain(id) as (
      select ${id}::text
      union
      select r.replacing_id from session_replacements r join chain c on r.replaced_id = c.id
    )
    select id from chain`);
  return rowsOf<{ id: string }>(result).map((row) => row.id);
}

/**
 * Locks the live sessions among the ids `read` returns, reading again until a reading adds none: a consent that
 * replaces one of them (openSession locks the session it replaces) has then either committed before the lock, and
 * its new session is in the last reading, or waits for this transaction and will find its session gone. Returns
 * every id read. The locks are taken in id order, so two of these never wait for each other in a circle.
 */
async function lockSessionsUntilSettled(tx: DbOrTx, read: () => Promise<string[]>): Promise<string[]> {
  const seen = new Set(await read());
  for (;;) {
    await tx
      .select({ id: sessions.id })
      .from(sessions)
      .where(inArray(sessions.id, [...seen]))
      .orderBy(asc(sessions.id))
      .for("update");
    const added = (await read()).filter((id) => !seen.has(id));
    if (added.length === 0) return [...seen];
    for (const id of added) seen.add(id);
  }
}

/**
 * Sign out: ends the session and every session that replaced it, however many consents later (a copy of the
 * cookie used to consent again must not outlive the merchant's sign-out). A consent racing it is either in the
 * chain when it is read or finds its session gone (see lockSessionsUntilSettled). Returns whether any session was
 * there.
 */
export async function deleteSessionChain(db: Db | DbOrTx, id: string, now: Date = new Date(), reason: GrantEndReason = "signed_out"): Promise<boolean> {
  return db.transaction(async (tx) => {
    const ids = await lockSessionsUntilSettled(tx, () => chainOf(tx, id));
    await recordEndedGrants(tx, inArray(sessionStores.sessionId, ids), reason, now);
    await tx.delete(sessionReplacements).where(inArray(sessionReplacements.replacedId, ids));
    const rows = await tx.delete(sessions).where(inArray(sessions.id, ids)).returning({ id: sessions.id });
    return rows.length > 0;
  });
}

/**
 * Sign out everywhere for a store: ends every session that holds it (with all their stores), a session opened by a
 * consent racing it included when that consent replaced one of them (see lockSessionsUntilSettled). Returns how many.
 */
export async function deleteSessionsHoldingStore(db: DbOrTx, storeId: number, now: Date = new Date()): Promise<number> {
  return db.transaction(async (tx) => {
    const holding = async () =>
      (await tx.select({ id: sessionStores.sessionId }).from(sessionStores).where(eq(sessionStores.storeId, storeId))).map((row) => row.id);
    const ids = await lockSessionsUntilSettled(tx, holding);
    if (ids.length === 0) return 0;
    await recordEndedGrants(tx, inArray(sessionStores.sessionId, ids), "signed_out_everywhere", now);
    const rows = await tx.delete(sessions).where(inArray(sessions.id, ids)).returning({ id: sessions.id });
    return rows.length;
  });
}

/**
 * The platform cut the app off from a store (uninstall, revoked token): no session opens it any more, and a later
 * install opens it only in the browser that consents. Other stores of those sessions stay open.
 */
export async function revokeStoreFromSessions(db: DbOrTx, storeId: number, now: Date = new Date()): Promise<number> {
  await recordEndedGrants(db, eq(sessionStores.storeId, storeId), "store_closed", now);
  const rows = await db
    .delete(sessionStores)
    .where(eq(sessionStores.storeId, storeId))
    .returning({ sessionId: sessionStores.sessionId });
  return rows.length;
}

/** Rows of sessions past either limit at `now` (what `npm run data:purge` clears). Returns how many. */
export async function deleteExpiredSessions(
  db: DbOrTx,
  input: { now: Date; idleTimeoutMs: number; absoluteLifetimeMs: number },
): Promise<number> {
  const idleCutoff = new Date(input.now.getTime() - input.idleTimeoutMs);
  const lifetimeCutoff = new Date(input.now.getTime() - input.absoluteLifetimeMs);
  // At exactly a limit the session is over (lib/session-policy.ts), hence lte.
  const expired = or(lte(sessions.lastSeenAt, idleCutoff), lte(sessions.createdAt, lifetimeCutoff));
  return db.transaction(async (tx) => {
    const ids = tx.select({ id: sessions.id }).from(sessions).where(expired);
    await recordEndedGrants(tx, inArray(sessionStores.sessionId, ids), "expired", input.now);
    const rows = await tx.delete(sessions).where(expired).returning({ id: sessions.id });
    await tx.delete(sessionReplacements).where(lte(sessionReplacements.expiresAt, input.now));
    return rows.length;
  });
}

/**
 * The stores a session holds or held until lately: its own rows while it exists (live, or past its limits but not yet
 * written off), and the endings kept for it (ended_grants, 12 hours). A returning merchant's proof
 * (lib/oauth/returning-merchant.ts) names one of them; ascending.
 */
export async function findSessionStoreIds(db: DbOrTx, sessionId: string): Promise<number[]> {
  const result = await db.execute(sql`
    select ${sessionStores.storeId} as store_id from ${sessionStores} where ${sessionStores.sessionId} = ${sessionId}
    union
    select ${endedGrants.storeId} from ${endedGrants} where ${endedGrants.sessionId} = ${sessionId}
    order by 1`);
  return rowsOf<{ store_id: number | string }>(result).map((row) => Number(row.store_id));
}
