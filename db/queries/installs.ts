import { and, asc, eq, inArray, isNotNull, ne, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "@/db/client";
import { installs, sessionStores, type Install, type InstallState } from "@/db/schema";

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

/** Installs grouped by state and granted scopes, with how many stores each holds: a few rows however many stores. */
export async function countInstallsByGrant(db: DbOrTx): Promise<{ state: string; scopes: string[]; stores: number }[]> {
  return db
    .select({ state: installs.state, scopes: installs.scopes, stores: sql<number>`count(*)::int` })
    .from(installs)
    .groupBy(installs.state, installs.scopes);
}

/** What upsertInstalledStores wrote, and the rows of other stores (`staleStoreId`) it dropped for holding an install id it wrote. */
export type UpsertedStores = { saved: Install[]; dropped: { staleStoreId: number; storeId: number; installId: number }[] };

/**
 * Records every store of one token exchange, all or none. A store seen before keeps its row: the new token
 * replaces the old one (which the platform has just revoked), scopes are replaced by the new grant, and the
 * install becomes active again whatever state it was in. `installedAt` moves to `at` so a late `app.uninstalled`
 * for the previous install cannot mark this fresh one uninstalled (see markInstallUninstalled). Grants that
 * sessions still hold on a store whose row is in one of `closedStates` are deleted first.
 */
export async function upsertInstalledStores(
  db: Db | DbOrTx,
  input: {
    stores: readonly InstalledStoreRow[];
    scopes: readonly string[];
    at: Date;
    closedStates: readonly InstallState[];
  },
): Promise<UpsertedStores> {
  if (input.stores.length === 0) return { saved: [], dropped: [] };
  return db.transaction(async (tx) => {
    const saved: Install[] = [];
    const dropped: UpsertedStores["dropped"] = [];
    for (const store of input.stores) {
      // Install ids are unique per app and store, so another store's row holding this id can only be a leftover of
      // platform data that was wiped (an emulator reset). It can never work again; keeping it would block this one.
      const stale = await tx
        .delete(installs)
        .where(and(eq(installs.installId, store.installId), ne(installs.storeId, store.storeId)))
        .returning({ storeId: installs.storeId });
      for (const row of stale) dropped.push({ staleStoreId: row.storeId, storeId: store.storeId, installId: store.installId });
      // A store the platform had cut off reopens only in the browser consenting now: sessions that held it before
      // the uninstall lose it here if anything was left behind (see lib/installs/record-state.ts).
      if (input.closedStates.length > 0) {
        await tx
          .delete(sessionStores)
          .where(
            and(
              eq(sessionStores.storeId, store.storeId),
              sql`exists (select 1 from ${installs} where ${installs.storeId} = ${store.storeId} and ${inArray(installs.state, [...input.closedStates])})`,
            ),
          );
      }
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
            stateChangedAt: sql`case when ${installs.state} = ${values.state} then ${installs.stateChangedAt} else ${asTimestamptz(input.at)} end`,
            state: values.state,
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
    return { saved, dropped };
  });
}

/**
 * Writes an install's state (lib/installs/record-state.ts decides the rest). With `destroyToken` the stored token is
 * cleared; with `uninstalledAt` the time of the uninstall is kept unless one is already there. Returns the row, or
 * null if absent.
 *
 * With `expectedCiphertext` (the sealed token a platform answer was about), the row changes only if it still holds
 * that token and is in another state, in the same statement: a merchant who installs again while the old token's
 * 401 is being recorded keeps the new token, where a read then a write would destroy it. Null then means nothing
 * changed.
 */
export async function setInstallState(
  db: DbOrTx,
  storeId: number,
  input: { state: InstallState; at: Date; destroyToken: boolean; uninstalledAt?: Date; expectedCiphertext?: string },
): Promise<Install | null> {
  const { state, at, expectedCiphertext } = input;
  const [row] = await db
    .update(installs)
    .set({
      state,
      stateChangedAt: sql`case when ${installs.state} = ${state} then ${installs.stateChangedAt} else ${asTimestamptz(at)} end`,
      updatedAt: at,
      ...(input.destroyToken ? { tokenCiphertext: null, tokenKeyId: null } : {}),
      ...(input.uninstalledAt
        ? { uninstalledAt: sql`coalesce(${installs.uninstalledAt}, ${asTimestamptz(input.uninstalledAt)})` }
        : {}),
    })
    .where(
      expectedCiphertext === undefined
        ? eq(installs.storeId, storeId)
        : and(eq(installs.storeId, storeId), eq(installs.tokenCiphertext, expectedCiphertext), ne(installs.state, state)),
    )
    .returning();
  return row ?? null;
}

/**
 * The merchant uninstalled the app: writes the uninstalled state on the install `installId` of `storeId`, at `at`
 * (the platform's time, recorded as is), and clears its token. The install is found by its install id, never by
 * comparing the platform's clock with ours; a row already uninstalled is left alone. Ending the sessions that hold
 * the store is lib/installs/record-state.ts's part. Returns true when the row changed.
 */
export async function markInstallUninstalled(
  db: DbOrTx,
  input: { storeId: number; installId: number; at: Date },
): Promise<boolean> {
  const values = {
    state: "uninstalled",
    stateChangedAt: input.at,
    uninstalledAt: input.at,
    tokenCiphertext: null,
    tokenKeyId: null,
    updatedAt: new Date(),
  } satisfies Partial<typeof installs.$inferInsert>;
  const rows = await db
    .update(installs)
    .set(values)
    .where(and(eq(installs.storeId, input.storeId), eq(installs.installId, input.installId), ne(installs.state, values.state)))
    .returning({ storeId: installs.storeId });
  return rows.length > 0;
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
