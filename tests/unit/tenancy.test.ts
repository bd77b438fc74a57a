import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { installs, sessions } from "@/db/schema";
import { recordInstallState } from "@/lib/installs/record-state";
import { signIn } from "@/lib/session-lifecycle";
import { ABSOLUTE_LIFETIME_MS, IDLE_TIMEOUT_MS } from "@/lib/session-policy";
import { parseStoreId } from "@/lib/sections";
import { resolveStoreAccess } from "@/lib/tenancy";
import { createTestDatabase } from "@/tests/helpers/database";
import { saveFixtureStores } from "@/tests/helpers/fixture-stores";

let handle: DatabaseHandle;
const T0 = new Date("2026-05-01T08:00:00.000Z");
const at = (ms: number) => new Date(T0.getTime() + ms);

beforeAll(async () => {
  handle = await createTestDatabase();
  await saveFixtureStores(handle.db, [{ storeId: 301, storeName: "Closed Store", installId: 4, accessToken: "svcpk_live_d" }]);
});
afterAll(async () => {
  await handle?.close();
});
beforeEach(async () => {
  await handle.db.delete(sessions);
});

async function session(storeIds: number[], now = T0): Promise<string> {
  return (await signIn(handle.db, { previousId: null, storeIds, now })).id;
}

describe("resolveStoreAccess", () => {
  it("grants a store of the session, with its install row, and asks for no write right after sign-in", async () => {
    const id = await session([101, 102]);
    const access = await resolveStoreAccess(handle.db, id, "102", T0);
    expect(access).toMatchObject({ ok: true, storeId: 102, touch: false });
    expect(access.ok && access.install).toMatchObject({ storeId: 102, storeName: "Amina Maison", state: "active" });
  });

  it("asks to move last_seen_at once a minute has passed", async () => {
    const id = await session([101]);
    expect(await resolveStoreAccess(handle.db, id, "101", at(59_999))).toMatchObject({ ok: true, touch: false });
    expect(await resolveStoreAccess(handle.db, id, "101", at(60_000))).toMatchObject({ ok: true, touch: true });
  });

  it("refuses a store installed in the database but outside this session", async () => {
    const id = await session([101, 102]);
    expect(await resolveStoreAccess(handle.db, id, "201", T0)).toEqual({ ok: false, reason: "not_in_session" });
  });

  it("refuses without a session, or with a session id the database does not know", async () => {
    expect(await resolveStoreAccess(handle.db, null, "101", T0)).toEqual({ ok: false, reason: "signed_out" });
    expect(await resolveStoreAccess(handle.db, "0".repeat(64), "101", T0)).toEqual({ ok: false, reason: "signed_out" });
  });

  it("refuses every store once the session is idle for 30 minutes, exactly", async () => {
    const id = await session([101]);
    expect((await resolveStoreAccess(handle.db, id, "101", at(IDLE_TIMEOUT_MS - 1))).ok).toBe(true);
    expect(await resolveStoreAccess(handle.db, id, "101", at(IDLE_TIMEOUT_MS))).toEqual({ ok: false, reason: "session_expired" });
    // An expired session says so even for a store it never held (nothing about membership is revealed).
    expect(await resolveStoreAccess(handle.db, id, "201", at(IDLE_TIMEOUT_MS))).toEqual({ ok: false, reason: "session_expired" });
  });

  it("refuses every store once the session is 12 hours old, however busy", async () => {
    const id = await session([101]);
    await handle.db.update(sessions).set({ lastSeenAt: at(ABSOLUTE_LIFETIME_MS - 60_000) });
    expect((await resolveStoreAccess(handle.db, id, "101", at(ABSOLUTE_LIFETIME_MS - 1))).ok).toBe(true);
    expect(await resolveStoreAccess(handle.db, id, "101", at(ABSOLUTE_LIFETIME_MS))).toEqual({ ok: false, reason: "session_expired" });
  });

  it("refuses a store the platform cut off while the session still held it", async () => {
    const id = await session([101, 301]);
    // A suspension can be lifted: the store stays open (its pages explain the state).
    await recordInstallState(handle.db, 301, "app_suspended", T0);
    expect(await resolveStoreAccess(handle.db, id, "301", T0)).toMatchObject({ ok: true, storeId: 301 });
    await recordInstallState(handle.db, 301, "revoked", T0);
    expect(await resolveStoreAccess(handle.db, id, "301", T0)).toEqual({ ok: false, reason: "not_in_session" });
    expect((await resolveStoreAccess(handle.db, id, "101", T0)).ok).toBe(true);
  });

  it("refuses a held store whose install is closed even if its grant were left behind", async () => {
    const id = await session([102]);
    // Written around recordInstallState on purpose: the guard itself must not rely on the grant being deleted.
    await handle.db.update(installs).set({ state: "uninstalled" }).where(eq(installs.storeId, 102));
    expect(await resolveStoreAccess(handle.db, id, "102", T0)).toEqual({ ok: false, reason: "store_closed" });
    await handle.db.update(installs).set({ state: "active" }).where(eq(installs.storeId, 102));
    expect((await resolveStoreAccess(handle.db, id, "102", T0)).ok).toBe(true);
  });

  it("refuses ids that are not plain store ids before reading anything", async () => {
    const id = await session([101]);
    for (const bad of ["", "0", "-101", "101.0", "0101", "1e2", "101 ", " 101", "abc", "99999999999", "2147483648"]) {
      expect(await resolveStoreAccess(handle.db, id, bad, T0)).toEqual({ ok: false, reason: "bad_store_id" });
    }
    expect(await resolveStoreAccess(handle.db, null, "x", T0)).toEqual({ ok: false, reason: "bad_store_id" });
  });
});

describe("parseStoreId", () => {
  it("reads digits only, within the database's integer range", () => {
    expect(parseStoreId("1")).toBe(1);
    expect(parseStoreId("101")).toBe(101);
    expect(parseStoreId("2147483647")).toBe(2147483647);
    expect(parseStoreId("2147483648")).toBeNull();
    expect(parseStoreId("9999999999")).toBeNull();
    expect(parseStoreId("01")).toBeNull();
    expect(parseStoreId("a101")).toBeNull();
    expect(parseStoreId("101a")).toBeNull();
  });
});
