import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { findInstall } from "@/db/queries/installs";
import {
  deleteExpiredSessions,
  findSession,
  findSessionInstalls,
  findSessionStoreAccess,
  touchSession,
} from "@/db/queries/sessions";
import { installs, sessionReplacements, sessions, sessionStores } from "@/db/schema";
import { recordInstallState } from "@/lib/installs/record-state";
import { closedInstallStates } from "@/lib/installs/state";
import { saveInstalledStores } from "@/lib/installs/tokens";
import { setLogSink } from "@/lib/log";
import { signIn, signOut, signOutEverywhere } from "@/lib/session-lifecycle";
import { ABSOLUTE_LIFETIME_MS, IDLE_TIMEOUT_MS, sessionIdOf } from "@/lib/session-policy";
import { resolveStoreAccess } from "@/lib/tenancy";
import { receiveWebhookOutcome } from "@/lib/webhooks/receive";
import { sampleEnvelope } from "@/lib/webhooks/samples";
import { createTestDatabase, databaseKind } from "../helpers/database";
import { signedWebhookRequest } from "../helpers/webhook-request";

/**
 * Server-side sessions against a real database: what ends a session's access, and what must not. A "copy of the
 * cookie" is the same secret, hence the same session id: whatever refuses the id refuses every copy.
 */

const SECRET = "svcwhsec_" + "5e".repeat(24);
const T0 = new Date("2026-05-01T08:00:00.000Z");
const at = (ms: number) => new Date(T0.getTime() + ms);
const MINUTE = 60_000;

let handle: DatabaseHandle;
let restoreLog: () => void;

async function install(stores: { storeId: number; installId: number }[], now = T0) {
  await saveInstalledStores(
    handle.db,
    {
      scopes: ["orders:read"],
      stores: stores.map(({ storeId, installId }) => ({ storeId, installId, storeName: `Store ${storeId}`, accessToken: `svcpk_live_${storeId}` })),
    },
    { at: now },
  );
}

async function device(storeIds: number[], now = T0, previousId: string | null = null): Promise<string> {
  return (await signIn(handle.db, { previousId, storeIds, now })).id;
}

async function opens(id: string, storeId: number, now = T0): Promise<boolean> {
  return (await resolveStoreAccess(handle.db, id, String(storeId), now)).ok;
}

async function uninstallWebhook(storeId: number, installId: number) {
  const request = signedWebhookRequest(sampleEnvelope("app.uninstalled", { storeId, installId, at: new Date() }), SECRET);
  return receiveWebhookOutcome(request, { db: handle.db, secret: SECRET });
}

describe(`server-side sessions (${databaseKind()})`, () => {
  beforeAll(async () => {
    handle = await createTestDatabase();
    restoreLog = setLogSink(() => {});
  });
  afterAll(async () => {
    restoreLog?.();
    await handle?.close();
  });
  beforeEach(async () => {
    await handle.db.delete(sessions);
    await handle.db.delete(sessionReplacements);
    await handle.db.delete(installs);
    await install([
      { storeId: 101, installId: 1 },
      { storeId: 102, installId: 2 },
      { storeId: 103, installId: 3 },
    ]);
  });

  it("stores only the hash of the cookie's secret", async () => {
    const { secret, id } = await signIn(handle.db, { previousId: null, storeIds: [101], now: T0 });
    expect(id).toBe(sessionIdOf(secret));
    const rows = await handle.db.select().from(sessions);
    expect(rows).toEqual([{ id, createdAt: T0, lastSeenAt: T0 }]);
    expect(JSON.stringify(rows)).not.toContain(secret);
  });

  it("what a page reads of the session's stores holds no sealed token, and everything else of the install", async () => {
    const laptop = await device([101, 102]);
    const stored = await findInstall(handle.db, 101);
    expect(stored?.tokenCiphertext).toBeTruthy();
    const { tokenCiphertext: _sealed, tokenKeyId: _key, ...unsealed } = stored!;
    const found = await findSessionInstalls(handle.db, laptop, { closedStates: closedInstallStates() });
    expect(found?.installs[0]).toEqual(unsealed);
    const access = await findSessionStoreAccess(handle.db, laptop, 101);
    expect(access?.install).toEqual(unsealed);
    for (const read of [found, access]) {
      expect(JSON.stringify(read)).not.toContain(stored!.tokenCiphertext!);
      expect(JSON.stringify(read)).not.toContain("token");
    }
  });

  it("after an app.uninstalled, every session is refused that store at once and keeps its others", async () => {
    const laptop = await device([101, 102]);
    const phone = await device([101, 103]);
    const outcome = await uninstallWebhook(101, 1);
    expect(outcome).toEqual({ status: 200, body: { ok: true, duplicate: false, effect: "install_uninstalled" } });
    expect(await opens(laptop, 101)).toBe(false);
    expect(await opens(phone, 101)).toBe(false);
    expect(await opens(laptop, 102)).toBe(true);
    expect(await opens(phone, 103)).toBe(true);
    expect((await findSessionInstalls(handle.db, laptop, { closedStates: closedInstallStates() }))?.installs.map((row) => row.storeId)).toEqual([102]);
  });

  it("an uninstall for another install id changes nothing", async () => {
    const laptop = await device([101]);
    await uninstallWebhook(101, 2);
    expect((await findInstall(handle.db, 101))?.state).toBe("active");
    expect(await opens(laptop, 101)).toBe(true);
  });

  it("after an uninstall and an install from another browser, the old session stays refused", async () => {
    const laptop = await device([101, 102]);
    await uninstallWebhook(101, 1);
    await install([{ storeId: 101, installId: 1 }], at(MINUTE));
    const phone = await device([101], at(MINUTE));
    expect(await opens(phone, 101, at(MINUTE))).toBe(true);
    expect(await opens(laptop, 101, at(MINUTE))).toBe(false);
    expect(await opens(laptop, 102, at(MINUTE))).toBe(true);
  });

  it("an install removes any hold left behind on a store the platform had cut off, and only then", async () => {
    const laptop = await device([101, 102]);
    // As if the process died between recording the 401 and removing the store from sessions.
    await handle.db.update(installs).set({ state: "revoked" }).where(eq(installs.storeId, 101));
    expect(await resolveStoreAccess(handle.db, laptop, "101", T0)).toEqual({ ok: false, reason: "store_closed" });
    await install([{ storeId: 101, installId: 1 }, { storeId: 102, installId: 2 }], at(MINUTE));
    const phone = await device([101, 102], at(MINUTE));
    expect(await opens(phone, 101, at(MINUTE))).toBe(true);
    expect(await opens(laptop, 101, at(MINUTE))).toBe(false);
    // 102 was open all along: the laptop keeps it.
    expect(await opens(laptop, 102, at(MINUTE))).toBe(true);
  });

  it("a 401 recorded as revoked ends every session's access to that store only", async () => {
    const laptop = await device([101, 102]);
    const sealed = (await findInstall(handle.db, 101))?.tokenCiphertext ?? "";
    expect(await recordInstallState(handle.db, 101, "revoked", T0, { expectedCiphertext: sealed })).not.toBeNull();
    expect(await opens(laptop, 101)).toBe(false);
    expect(await opens(laptop, 102)).toBe(true);
    const [grants] = await handle.db.select({ n: count() }).from(sessionStores).where(eq(sessionStores.storeId, 101));
    expect(grants?.n).toBe(0);
  });

  it("a suspension does not end access (the platform can lift it)", async () => {
    const laptop = await device([101]);
    await recordInstallState(handle.db, 101, "app_suspended", T0);
    expect(await opens(laptop, 101)).toBe(true);
  });

  it("after sign-out the session id (any copy of the cookie) opens nothing", async () => {
    const laptop = await device([101, 102]);
    expect(await signOut(handle.db, laptop)).toBe(true);
    expect(await resolveStoreAccess(handle.db, laptop, "101", T0)).toEqual({ ok: false, reason: "signed_out" });
    expect(await resolveStoreAccess(handle.db, laptop, "102", T0)).toEqual({ ok: false, reason: "signed_out" });
    expect(await signOut(handle.db, laptop)).toBe(false);
    expect(await signOut(handle.db, null)).toBe(false);
  });

  it("sign out everywhere for a store ends every session holding it, and only those", async () => {
    const laptop = await device([101, 102]);
    const phone = await device([101]);
    const other = await device([103]);
    expect(await signOutEverywhere(handle.db, 101)).toBe(2);
    expect(await findSession(handle.db, laptop)).toBeNull();
    expect(await findSession(handle.db, phone)).toBeNull();
    expect(await opens(laptop, 102)).toBe(false);
    expect(await opens(other, 103)).toBe(true);
    expect(await signOutEverywhere(handle.db, 101)).toBe(0);
  });

  it("consenting on a second device leaves the first device's session open", async () => {
    const laptop = await device([101, 102]);
    // The phone consents to 101 again: the platform replaces the token, the install stays.
    await install([{ storeId: 101, installId: 1 }], at(MINUTE));
    const phone = await device([101], at(MINUTE));
    expect(phone).not.toBe(laptop);
    expect(await opens(laptop, 101, at(MINUTE))).toBe(true);
    expect(await opens(phone, 101, at(MINUTE))).toBe(true);
    expect(await opens(phone, 102, at(MINUTE))).toBe(false);
  });

  it("signing in again in the same browser gives a new id holding the old session's stores; the old id ends", async () => {
    const before = await device([101]);
    const after = await device([102], at(10 * MINUTE), before);
    expect(after).not.toBe(before);
    expect(await findSession(handle.db, before)).toBeNull();
    expect(await opens(after, 101, at(10 * MINUTE))).toBe(true);
    expect(await opens(after, 102, at(10 * MINUTE))).toBe(true);
    expect(await findSession(handle.db, after)).toEqual({ createdAt: at(10 * MINUTE), lastSeenAt: at(10 * MINUTE) });
  });

  it("a carried store keeps the time of the consent that granted it: no chain of consents keeps it open past 12 hours", async () => {
    const HOUR = 60 * MINUTE;
    const first = await device([101]);
    await touchSession(handle.db, first, at(6 * HOUR - MINUTE));
    const second = await device([102], at(6 * HOUR), first);
    await touchSession(handle.db, second, at(11 * HOUR - MINUTE));
    const third = await device([103], at(11 * HOUR), second);
    await touchSession(handle.db, third, at(12 * HOUR - 2 * MINUTE));
    expect(await opens(third, 101, at(ABSOLUTE_LIFETIME_MS - 1))).toBe(true);
    expect(await resolveStoreAccess(handle.db, third, "101", at(ABSOLUTE_LIFETIME_MS))).toEqual({ ok: false, reason: "not_in_session" });
    expect(await opens(third, 102, at(ABSOLUTE_LIFETIME_MS))).toBe(true);
    expect(await opens(third, 103, at(ABSOLUTE_LIFETIME_MS))).toBe(true);
    expect((await findSessionInstalls(handle.db, third, { closedStates: closedInstallStates(), grantedAfter: at(-1) }))?.installs.map((row) => row.storeId)).toEqual([101, 102, 103]);
    expect((await findSessionInstalls(handle.db, third, { closedStates: closedInstallStates(), grantedAfter: at(6 * HOUR - 1) }))?.installs.map((row) => row.storeId)).toEqual([102, 103]);
    // Ticked again on the consent screen, a store is granted again: its clock restarts from that consent.
    await touchSession(handle.db, third, at(12 * HOUR - MINUTE));
    const fourth = await device([101], at(12 * HOUR - MINUTE), third);
    expect(await opens(fourth, 101, at(12 * HOUR + 20 * MINUTE))).toBe(true);
    const grants = await handle.db.select().from(sessionStores).where(eq(sessionStores.sessionId, fourth));
    expect(new Map(grants.map((row) => [row.storeId, row.grantedAt]))).toEqual(
      new Map([
        [101, at(12 * HOUR - MINUTE)],
        [102, at(6 * HOUR)],
        [103, at(11 * HOUR)],
      ]),
    );
  });

  it("a store past its grant's lifetime is not carried into the next session", async () => {
    const HOUR = 60 * MINUTE;
    const first = await device([101]);
    await touchSession(handle.db, first, at(6 * HOUR - MINUTE));
    const second = await device([102], at(6 * HOUR), first);
    await touchSession(handle.db, second, at(12 * HOUR - MINUTE));
    const third = await device([103], at(12 * HOUR), second);
    const grants = await handle.db.select({ storeId: sessionStores.storeId }).from(sessionStores).where(eq(sessionStores.sessionId, third));
    expect(grants.map((row) => row.storeId).sort()).toEqual([102, 103]);
  });

  it("signing out with a cookie whose session a copy of it replaced ends the replacing sessions too", async () => {
    await install([{ storeId: 104, installId: 4 }]);
    const merchant = await device([101, 102, 103]);
    const copy = await device([104], at(5 * MINUTE), merchant);
    const copyOfCopy = await device([104], at(6 * MINUTE), copy);
    const elsewhere = await device([101], at(6 * MINUTE));
    expect(await opens(copyOfCopy, 101, at(7 * MINUTE))).toBe(true);
    // The merchant's own browser still presents the first cookie: signing out there ends the whole chain.
    expect(await signOut(handle.db, merchant)).toBe(true);
    for (const storeId of [101, 102, 103, 104]) expect(await opens(copyOfCopy, storeId, at(7 * MINUTE))).toBe(false);
    expect(await findSession(handle.db, copy)).toBeNull();
    expect(await findSession(handle.db, copyOfCopy)).toBeNull();
    expect(await opens(elsewhere, 101, at(7 * MINUTE))).toBe(true);
    expect(await handle.db.select().from(sessionReplacements)).toEqual([]);
  });

  it("signing in again with a cookie a copy of it replaced also ends the replacing sessions", async () => {
    await install([{ storeId: 104, installId: 4 }]);
    const merchant = await device([101, 102]);
    const copy = await device([104], at(5 * MINUTE), merchant);
    // The merchant's browser still holds the first cookie, which opens nothing now: the merchant signs in again.
    const again = await device([101], at(6 * MINUTE), merchant);
    expect(await findSession(handle.db, copy)).toBeNull();
    expect(await opens(again, 101, at(7 * MINUTE))).toBe(true);
    expect(await opens(again, 102, at(7 * MINUTE))).toBe(false);
  });

  it("signing out from the middle of a chain ends the sessions that followed it", async () => {
    const first = await device([101]);
    const second = await device([102], at(MINUTE), first);
    const third = await device([103], at(2 * MINUTE), second);
    expect(await signOut(handle.db, second)).toBe(true);
    expect(await findSession(handle.db, third)).toBeNull();
    expect(await signOut(handle.db, first)).toBe(false);
  });

  it("the purge forgets a replacement once the replaced cookie can no longer be presented", async () => {
    const first = await device([101]);
    await device([102], at(MINUTE), first);
    const purge = (now: Date) =>
      deleteExpiredSessions(handle.db, { now, idleTimeoutMs: IDLE_TIMEOUT_MS, absoluteLifetimeMs: ABSOLUTE_LIFETIME_MS });
    await purge(at(ABSOLUTE_LIFETIME_MS - 1));
    expect(await handle.db.select({ expiresAt: sessionReplacements.expiresAt }).from(sessionReplacements)).toEqual([
      { expiresAt: at(ABSOLUTE_LIFETIME_MS) },
    ]);
    await purge(at(ABSOLUTE_LIFETIME_MS));
    expect(await handle.db.select().from(sessionReplacements)).toEqual([]);
  });

  it("an expired session hands nothing over to the next sign-in, and is deleted", async () => {
    const before = await device([101]);
    const after = await device([102], at(IDLE_TIMEOUT_MS), before);
    expect(await findSession(handle.db, before)).toBeNull();
    expect(await opens(after, 101, at(IDLE_TIMEOUT_MS))).toBe(false);
    expect(await opens(after, 102, at(IDLE_TIMEOUT_MS))).toBe(true);
  });

  it("idle expiry with the clock moved: a touched session lives on, an untouched one ends", async () => {
    const busy = await device([101]);
    const idle = await device([101]);
    await touchSession(handle.db, busy, at(20 * MINUTE));
    expect(await opens(busy, 101, at(49 * MINUTE))).toBe(true);
    expect(await opens(idle, 101, at(29 * MINUTE))).toBe(true);
    expect(await opens(idle, 101, at(30 * MINUTE))).toBe(false);
    expect(await opens(busy, 101, at(50 * MINUTE))).toBe(false);
  });

  it("absolute expiry with the clock moved: a session in constant use ends at 12 hours", async () => {
    const busy = await device([101]);
    for (let minute = 20; minute < 12 * 60; minute += 20) await touchSession(handle.db, busy, at(minute * MINUTE));
    expect(await opens(busy, 101, at(ABSOLUTE_LIFETIME_MS - 1))).toBe(true);
    expect(await opens(busy, 101, at(ABSOLUTE_LIFETIME_MS))).toBe(false);
  });

  it("touchSession never moves last_seen_at back", async () => {
    const id = await device([101]);
    await touchSession(handle.db, id, at(10 * MINUTE));
    await touchSession(handle.db, id, at(5 * MINUTE));
    expect((await findSession(handle.db, id))?.lastSeenAt).toEqual(at(10 * MINUTE));
  });

  it("deleteExpiredSessions removes sessions at or past either limit, and only those", async () => {
    const idle = await device([101]);
    const old = await device([101]);
    const fresh = await device([101]);
    const now = at(ABSOLUTE_LIFETIME_MS);
    await touchSession(handle.db, idle, new Date(now.getTime() - IDLE_TIMEOUT_MS));
    await touchSession(handle.db, old, new Date(now.getTime() - MINUTE));
    await handle.db.update(sessions).set({ createdAt: at(MINUTE), lastSeenAt: new Date(now.getTime() - IDLE_TIMEOUT_MS + 1) }).where(eq(sessions.id, fresh));
    expect(await deleteExpiredSessions(handle.db, { now, idleTimeoutMs: IDLE_TIMEOUT_MS, absoluteLifetimeMs: ABSOLUTE_LIFETIME_MS })).toBe(2);
    expect(await findSession(handle.db, idle)).toBeNull();
    expect(await findSession(handle.db, old)).toBeNull();
    expect(await findSession(handle.db, fresh)).not.toBeNull();
  });

  it("a purged store's install row takes the sessions' hold on it along", async () => {
    const laptop = await device([101, 102]);
    await handle.db.delete(installs).where(eq(installs.storeId, 101));
    expect((await findSessionInstalls(handle.db, laptop, { closedStates: closedInstallStates() }))?.installs.map((row) => row.storeId)).toEqual([102]);
    const [grants] = await handle.db.select({ n: count() }).from(sessionStores).where(eq(sessionStores.storeId, 101));
    expect(grants?.n).toBe(0);
  });
});
