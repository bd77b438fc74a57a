import { and, asc, eq, inArray, isNotNull, ne, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "@/db/client";
import { installs, sessionStores, type Install } from "@/db/schema";
import { needsReinstall, type InstallState } from "@/lib/installs/state";
import { log } from "@/lib/log";
import { CLOSED_INSTALL_STATES, revokeStoreFromSessions } from "./sessions";

/** One store of a token exchange, its token already sealed by lib/installs/tokens.ts. */
export type InstalledStoreRow = {
  storeId: number;
  storeName: string;
  installId: number;
  tokenCiphertext: string;
  tokenKeyId: string;
};

/** A Date inside raw SQL: postgres.js takes no Date parameters there, so pass it as a typed ISO string. */
function asTimestamptz(at: Date) {
  return sql`${at.toISOString()}::timestamptz`;
}

export async function findInstall(db: DbOrTx, storeId: number): Promise<Install | null> {
  const [row] = await db.select().from(installs).where(eq(installs.storeId, storeId)).limit(1);
  return row ?? null;
}

export async function findInstallByInstallId(db: DbOrTx, installId: number): Promise<Install | null> {
  const [row] = await db.select().from(installs).where(eq(installs.installId, installId)).limit(1);
  return row ?? null;
}

export async function listInstallsByStoreIds(db: DbOrTx, storeIds: readonly number[]): Promise<Install[]> {
  if (storeIds.length === 0) return [];
  return db
    .select()
    .from(installs)
    .where(inArray(installs.storeId, [...storeIds]))
    .orderBy(asc(installs.storeName), asc(installs.storeId));
}

export async function listAllInstalls(db: DbOrTx): Promise<Install[]> {
  return db.select().from(installs).orderBy(asc(installs.storeId));
}

/**
 * Records every store of one token exchange, all or none. A store seen before keeps its row: the new token
 * replaces the old one (which the platform has just revoked), scopes are replaced by the new grant, and the
 * install becomes active again whatever state it was in. `installedAt` moves to `at` so a late `app.uninstalled`
 * for the previous install cannot mark this fresh one uninstalled (see markInstallUninstalled).
 */
export async function upsertInstalledStores(
  db: Db | DbOrTx,
  input: { stores: readonly InstalledStoreRow[]; scopes: readonly string[]; at: Date },
): Promise<Install[]> {
  if (input.stores.length === 0) return [];
  return db.transaction(async (tx) => {
    const saved: Install[] = [];
    for (const store of input.stores) {
      // Install ids are unique per app and store, so another store's row holding this id can only be a leftover of
      // platform data that was wiped (an emulator reset). It can never work again; keeping it would block this one.
      const stale = await tx
        .delete(installs)
        .where(and(eq(installs.installId, store.installId), ne(installs.storeId, store.storeId)))
        .returning({ storeId: installs.storeId });
      for (const row of stale) {
        log.warn("dropped a stale install row whose install id the platform gave to another store", {
          staleStoreId: row.storeId,
          storeId: store.storeId,
          installId: store.installId,
        });
      }
      // A store the platform had cut off reopens only in the browser consenting now: sessions that held it before
      // the uninstall lose it here if anything was left behind (see setInstallState).
      await tx
        .delete(sessionStores)
        .where(
          and(
            eq(sessionStores.storeId, store.storeId),
            sql`exists (select 1 from ${installs} where ${installs.storeId} = ${store.storeId} and ${inArray(installs.state, [...CLOSED_INSTALL_STATES])})`,
          ),
        );
      const values = {
        storeId: store.storeId,
        installId: store.installId,
        storeName: store.storeName,
        scopes: [...input.scopes],
        state: "active",
        stateChangedAt: input.at,
        tokenCiphertext: store.tokenCiphertext,
        tokenKeyId: store.tokenKeyId,
        installedAt: input.at,
        uninstalledAt: null,
        updatedAt: input.at,
      } satisfies typeof installs.$inferInsert;
      const [row] = await tx
        .insert(installs)
        .values(values)
        .onConflictDoUpdate({
          target: installs.storeId,
          set: {
            installId: values.installId,
            storeName: values.storeName,
            scopes: values.scopes,
            // Only a real change of state moves stateChangedAt.
            stateChangedAt: sql`case when ${installs.state} = 'active' then ${installs.stateChangedAt} else ${asTimestamptz(input.at)} end`,
            state: "active",
            tokenCiphertext: values.tokenCiphertext,
            tokenKeyId: values.tokenKeyId,
            installedAt: input.at,
            uninstalledAt: null,
            updatedAt: input.at,
          },
        })
        .returning();
      if (row) saved.push(row);
    }
    return saved;
  });
}

/**
 * Records what the platform said about an install (403 app_suspended, 401 revoked...). "revoked" and
 * "uninstalled" also destroy the stored token: it will never work again. Returns the row, or null if absent.
 *
 * With `expectedCiphertext` (the sealed token a platform answer was about), the row changes only if it still holds
 * that token and is in another state, in the same statement: a merchant who installs again while the old token's
 * 401 is being recorded keeps the new token, where a read then a write would destroy it. Null then means nothing
 * changed.
 */
export async function setInstallState(
  db: DbOrTx,
  storeId: number,
  state: InstallState,
  at: Date = new Date(),
  options: { expectedCiphertext?: string } = {},
): Promise<Install | null> {
  // A state only a new install leaves has a dead token: keeping the ciphertext would only be a liability.
  const destroy = needsReinstall(state);
  const { expectedCiphertext } = options;
  const [row] = await db
    .update(installs)
    .set({
      state,
      stateChangedAt: sql`case when ${installs.state} = ${state} then ${installs.stateChangedAt} else ${asTimestamptz(at)} end`,
      updatedAt: at,
      ...(destroy ? { tokenCiphertext: null, tokenKeyId: null } : {}),
      ...(state === "uninstalled" ? { uninstalledAt: sql`coalesce(${installs.uninstalledAt}, ${asTimestamptz(at)})` } : {}),
    })
    .where(
      expectedCiphertext === undefined
        ? eq(installs.storeId, storeId)
        : and(eq(installs.storeId, storeId), eq(installs.tokenCiphertext, expectedCiphertext), ne(installs.state, state)),
    )
    .returning();
  // A token revoked for good closes the store to every session. Not in the update's transaction on purpose: the
  // guard refuses a closed install by its state anyway, and an install made later removes any hold left behind
  // before it reopens the store (upsertInstalledStores), so the store opens only in the browser that consents.
  if (row && destroy) await revokeStoreFromSessions(db, storeId);
  return row ?? null;
}

/**
 * The merchant uninstalled the app: an `app.uninstalled` event for `installId` on `storeId`, at `at` (the
 * platform's time, recorded as is). The install is found by its install id, never by comparing the platform's
 * clock with ours. A notice for an install the merchant made again is never sent (the platform drops a pending
 * notice when the store is installed again), and a redelivered one is stopped by its event id. Every session
 * loses the store in the same statement's transaction. Returns true when the row changed.
 */
export async function markInstallUninstalled(
  db: DbOrTx,
  input: { storeId: number; installId: number; at: Date },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(installs)
      .set({
        state: "uninstalled",
        stateChangedAt: input.at,
        uninstalledAt: input.at,
        tokenCiphertext: null,
        tokenKeyId: null,
        updatedAt: new Date(),
      })
      .where(
        and(
          eq(installs.storeId, input.storeId),
          eq(installs.installId, input.installId),
          ne(installs.state, "uninstalled"),
        ),
      )
      .returning({ storeId: installs.storeId });
    if (rows.length === 0) return false;
    await revokeStoreFromSessions(tx, input.storeId);
    return true;
  });
}

/** Rows whose token is sealed with another key than `currentKeyId` (what `npm run tokens:rotate` works on). */
export async function listInstallsSealedWithOtherKey(db: DbOrTx, currentKeyId: string): Promise<Install[]> {
  return db
    .select()
    .from(installs)
    .where(and(isNotNull(installs.tokenCiphertext), ne(installs.tokenKeyId, currentKeyId)))
    .orderBy(asc(installs.storeId));
}

/**
 * Swaps one sealed token for its re-encryption, only if the row still holds what was read: a re-install or an
 * uninstall in between wins, and the stale value is not written back.
 */
export async function replaceSealedToken(
  db: DbOrTx,
  storeId: number,
  expected: { ciphertext: string; keyId: string },
  next: { ciphertext: string; keyId: string },
): Promise<boolean> {
  const rows = await db
    .update(installs)
    .set({ tokenCiphertext: next.ciphertext, tokenKeyId: next.keyId })
    .where(
      and(
        eq(installs.storeId, storeId),
        eq(installs.tokenCiphertext, expected.ciphertext),
        eq(installs.tokenKeyId, expected.keyId),
      ),
    )
    .returning({ storeId: installs.storeId });
  return rows.length > 0;
}
