import { eq } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "@/db/client";
import { findInstall } from "@/db/queries/installs";
import { findSession } from "@/db/queries/sessions";
import { createScratchDatabase, type ScratchDatabase } from "@/db/scratch";
import { endedGrants, installs, sessionReplacements, sessions, sessionStores } from "@/db/schema";
import { recordInstallState } from "@/lib/installs/record-state";
import { saveInstalledStores } from "@/lib/installs/tokens";
import { setLogSink } from "@/lib/log";
import { signIn, signOut, signOutEverywhere } from "@/lib/session-lifecycle";
import { resolveStoreAccess } from "@/lib/tenancy";
import { migrateDatabase } from "@/lib/database/migrate";

/**
 * Sessions under concurrency: a consent racing a sign-out, two consents racing with one cookie, a re-install landing
 * while a revoked token is being recorded. Each race is made to happen, not hoped for: a third connection holds a
 * table lock that one side needs part-way through, the other side is started, the test waits until the server shows
 * both sides waiting on a lock, then lets go. The outcome must be one that the two requests, one after the other
 * in some order, would have left.
 *
 * PGlite serves one connection at a time, so these run on a PostgreSQL server: TEST_DATABASE_URL (or
 * DATABASE_URL), else the one CI runs at 127.0.0.1:5432. Without a server answering they are skipped, saying why.
 */

const serverUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

async function serverUnanswered(): Promise<string | null> {
  const probe = postgres(serverUrl, { max: 1, connect_timeout: 2, onnotice: () => {} });
  try {
    await probe`select 1`;
    return null;
  } catch (error) {
    const where = new URL(serverUrl).host;
    return `no PostgreSQL server answers at ${where} (${(error as Error).message}): these races need two real connections, which PGlite cannot give`;
  } finally {
    await probe.end({ timeout: 1 }).catch(() => {});
  }
}

const unanswered = await serverUnanswered();

const T0 = new Date("2026-05-01T08:00:00.000Z");
const at = (ms: number) => new Date(T0.getTime() + ms);
const MINUTE = 60_000;

let scratch: ScratchDatabase;
let handle: DatabaseHandle;
/** The third connection: holds the lock that stops one side of a race part-way. */
let blocker: postgres.Sql;
/** A fourth, to watch the others wait (the blocker's one connection is taken by its transaction). */
let observer: postgres.Sql;
let restoreLog: () => void;

async function install(stores: { storeId: number; installId: number }[], now = T0) {
  await saveInstalledStores(
    handle.db,
    {
      scopes: ["orders:read"],
      stores: stores.map(({ storeId, installId }) => ({ storeId, installId, storeName: `Store ${storeId}`, accessToken: `svcpk_live_${storeId}_${installId}` })),
    },
    { at: now },
  );
}

async function opens(id: string, storeId: number, now = at(MINUTE)): Promise<boolean> {
  return (await resolveStoreAccess(handle.db, id, String(storeId), now)).ok;
}

/** Sessions (by id) that hold `storeId`. */
async function holdersOf(storeId: number): Promise<string[]> {
  const rows = await handle.db.select({ id: sessionStores.sessionId }).from(sessionStores).where(eq(sessionStores.storeId, storeId));
  return rows.map((row) => row.id).sort();
}

/** How many of this database's backends wait for a lock right now. */
async function lockWaiters(): Promise<number> {
  const [row] = await observer<{ n: number }[]>`
    select count(*)::int as n from pg_stat_activity
    where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`;
  return row?.n ?? 0;
}

async function untilLockWaiters(n: number): Promise<void> {
  const deadline = Date.now() + 15_000;
  while ((await lockWaiters()) < n) {
    if (Date.now() > deadline) throw new Error(`fewer than ${n} backends ever waited for a lock`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Holds `lock table <table> in exclusive mode` on the third connection (every write to that table waits, reads do
 * not) until the returned function is called.
 */
async function holdTableLock(table: string): Promise<{ release: () => Promise<void> }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const transaction = blocker.begin(async (sql) => {
    await sql.unsafe(`lock table ${table} in exclusive mode`);
    locked();
    await released;
  });
  await isLocked;
  return {
    release: async () => {
      release();
      await transaction;
    },
  };
}

describe.skipIf(unanswered !== null)(
  unanswered === null ? "session races on a PostgreSQL server (connections interleaved)" : `session races: skipped, ${unanswered}`,
  () => {
  beforeAll(async () => {
    scratch = await createScratchDatabase(serverUrl, "starter_races");
    handle = await openDatabase({ url: scratch.url });
    await migrateDatabase(handle);
    blocker = postgres(scratch.url, { max: 1, onnotice: () => {} });
    observer = postgres(scratch.url, { max: 1, onnotice: () => {} });
    restoreLog = setLogSink(() => {});
  });
  afterAll(async () => {
    restoreLog?.();
    await blocker?.end({ timeout: 5 });
    await observer?.end({ timeout: 5 });
    await handle?.close();
    await scratch?.drop();
  });
  beforeEach(async () => {
    await handle.db.delete(sessions);
    await handle.db.delete(sessionReplacements);
    await handle.db.delete(endedGrants);
    await handle.db.delete(installs);
    await install([
      { storeId: 101, installId: 1 },
      { storeId: 102, installId: 2 },
      { storeId: 103, installId: 3 },
    ]);
  });

  describe.each([
    { first: "the consent" as const, second: "the sign-out" as const },
    { first: "the sign-out" as const, second: "the consent" as const },
  ])("a consent made with a copy of the cookie, racing the owner's sign-out ($first first)", ({ first }) => {
    it("leaves no session holding the signed-out stores", async () => {
      // The owner's browser holds 101; someone with a copy of its cookie consents for a store of their own (102).
      const owner = (await signIn(handle.db, { previousId: null, storeIds: [101], now: T0 })).id;
      // Both touch session_replacements part-way (the consent links the sessions, the sign-out forgets the links):
      // the one started first stops there, holding whatever it has locked so far, and the other runs into it.
      const gate = await holdTableLock("session_replacements");
      const consent = () => signIn(handle.db, { previousId: owner, storeIds: [102], now: at(MINUTE) });
      const signOutNow = () => signOut(handle.db, owner, at(MINUTE));
      let consented: Promise<{ id: string }>;
      let signedOut: Promise<boolean>;
      if (first === "the consent") {
        consented = consent();
        await untilLockWaiters(1);
        signedOut = signOutNow();
      } else {
        signedOut = signOutNow();
        await untilLockWaiters(1);
        consented = consent();
      }
      await untilLockWaiters(2);
      await gate.release();
      const [{ id: copy }, ended] = await Promise.all([consented, signedOut]);

      expect(ended).toBe(true);
      expect(await findSession(handle.db, owner)).toBeNull();
      // The owner signed out: 101 is open nowhere, whoever won. The copy keeps at most the store it chose itself.
      expect(await holdersOf(101)).toEqual([]);
      expect(await opens(copy, 101)).toBe(false);
      // Consent first: its session replaced the owner's, so the sign-out ended it too. Sign-out first: the consent
      // found the owner's session gone, carried nothing, and its own choice stands.
      expect(await opens(copy, 102)).toBe(first === "the sign-out");
    });
  });

  it("two consents with one cookie: one carries the stores and is linked, the other carries nothing and ends it", async () => {
    const owner = (await signIn(handle.db, { previousId: null, storeIds: [101], now: T0 })).id;
    const gate = await holdTableLock("session_replacements");
    const one = signIn(handle.db, { previousId: owner, storeIds: [102], now: at(MINUTE) });
    await untilLockWaiters(1);
    const other = signIn(handle.db, { previousId: owner, storeIds: [103], now: at(MINUTE) });
    await untilLockWaiters(2);
    await gate.release();
    const [first, second] = await Promise.all([one, other]);

    // The first replaced the owner's session, then the second found it gone: as if it came just after, it carried
    // nothing and ended the chain it would otherwise have left out of its own reach.
    expect(await findSession(handle.db, first.id)).toBeNull();
    expect(await opens(second.id, 103)).toBe(true);
    expect(await opens(second.id, 101)).toBe(false);
    expect(await holdersOf(101)).toEqual([]);
    // No link was overwritten to point at a session that carries nothing.
    expect(await handle.db.select().from(sessionReplacements)).toEqual([]);
    // A sign-out with the old cookie reaches everything that was carried from it: here, nothing is left to end.
    expect(await signOut(handle.db, owner, at(2 * MINUTE))).toBe(false);
    expect(await opens(second.id, 103, at(2 * MINUTE))).toBe(true);
  });

  it("sign out everywhere racing a consent that replaces a session holding the store ends the new session too", async () => {
    const laptop = (await signIn(handle.db, { previousId: null, storeIds: [101, 102], now: T0 })).id;
    const gate = await holdTableLock("session_replacements");
    const consent = signIn(handle.db, { previousId: laptop, storeIds: [103], now: at(MINUTE) });
    await untilLockWaiters(1);
    const everywhere = signOutEverywhere(handle.db, 101);
    await untilLockWaiters(2);
    await gate.release();
    const [{ id: replacing }, count] = await Promise.all([consent, everywhere]);
    expect(count).toBe(1);
    expect(await findSession(handle.db, replacing)).toBeNull();
    expect(await holdersOf(101)).toEqual([]);
  });

  it("a re-install landing between the revoke and the state change keeps the hold its consent opened", async () => {
    const laptop = (await signIn(handle.db, { previousId: null, storeIds: [101, 102], now: T0 })).id;
    const sealed = (await findInstall(handle.db, 101))?.tokenCiphertext ?? "";
    // The revoke writes ended_grants before it deletes the holds: stopped there, after the state has been written.
    const gate = await holdTableLock("ended_grants");
    const revoking = recordInstallState(handle.db, 101, "revoked", at(MINUTE), { expectedCiphertext: sealed });
    await untilLockWaiters(1);
    // The merchant installs again (a new token) and the consent opens a session on the phone.
    const reinstalling = (async () => {
      await install([{ storeId: 101, installId: 11 }], at(MINUTE));
      return (await signIn(handle.db, { previousId: null, storeIds: [101], now: at(MINUTE) })).id;
    })();
    // The re-install waits for the revoke (a second lock waiter), or, were the two not one transaction, is done.
    await Promise.race([reinstalling, untilLockWaiters(2)]);
    await gate.release();
    const [revoked, phone] = await Promise.all([revoking, reinstalling]);

    expect(revoked).not.toBeNull();
    const row = await findInstall(handle.db, 101);
    expect(row).toMatchObject({ state: "active", installId: 11 });
    expect(row?.tokenCiphertext).not.toBe(sealed);
    expect(await opens(phone, 101)).toBe(true);
    // The laptop's hold ended with the revoked token; its other store stays.
    expect(await opens(laptop, 101)).toBe(false);
    expect(await opens(laptop, 102)).toBe(true);
  });
  },
);
