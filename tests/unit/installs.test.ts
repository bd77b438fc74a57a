import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import {
  findInstall,
  findInstallByInstallId,
  listAllInstalls,
  listInstallsByStoreIds,
} from "@/db/queries/installs";
import { installs } from "@/db/schema";
import { rotateTokenKeys } from "@/lib/crypto/rotate-tokens";
import { keyRing, TokenCipherError, tokenKeyFromBase64 } from "@/lib/crypto/token-cipher";
import { recordInstallState, recordUninstall } from "@/lib/installs/record-state";
import { loadAccessToken, openInstallToken, saveInstalledStores } from "@/lib/installs/tokens";
import { createTestDatabase } from "@/tests/helpers/database";

let handle: DatabaseHandle;
const keyA = randomBytes(32).toString("base64");
const keyB = randomBytes(32).toString("base64");
const ringA = keyRing(keyA);

const T0 = new Date("2025-01-01T10:00:00Z");
const T1 = new Date("2025-01-01T11:00:00Z");
const T2 = new Date("2025-01-01T12:00:00Z");

const exchange = (tokens: { s101?: string; s102?: string }, scopes = ["orders:read"]) => ({
  scopes,
  stores: [
    ...(tokens.s101 ? [{ storeId: 101, storeName: "Amina Couture", installId: 11, accessToken: tokens.s101 }] : []),
    ...(tokens.s102 ? [{ storeId: 102, storeName: "Amina Maison", installId: 12, accessToken: tokens.s102 }] : []),
  ],
});

beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle?.close();
});
beforeEach(async () => {
  await handle.db.delete(installs);
});

describe("saveInstalledStores", () => {
  it("stores every store of the exchange with its token sealed and the granted scopes", async () => {
    const saved = await saveInstalledStores(handle.db, exchange({ s101: "svcpk_live_aaa", s102: "svcpk_live_bbb" }), { at: T0, ring: ringA });
    expect(saved.map((row) => row.storeId).sort()).toEqual([101, 102]);
    const rows = await listAllInstalls(handle.db);
    for (const row of rows) {
      expect(row.state).toBe("active");
      expect(row.scopes).toEqual(["orders:read"]);
      expect(row.tokenKeyId).toBe(ringA.current.id);
      expect(row.tokenCiphertext).not.toContain("svcpk_live_");
    }
    expect(await loadAccessToken(handle.db, 101, ringA)).toEqual({ token: "svcpk_live_aaa", installId: 11 });
    expect(await loadAccessToken(handle.db, 102, ringA)).toEqual({ token: "svcpk_live_bbb", installId: 12 });
  });

  it("on a second install replaces the token and the scopes and keeps one row per store", async () => {
    await saveInstalledStores(handle.db, exchange({ s101: "svcpk_live_old" }, ["orders:read"]), { at: T0, ring: ringA });
    await saveInstalledStores(handle.db, exchange({ s101: "svcpk_live_new" }, ["orders:read", "products:write"]), { at: T1, ring: ringA });
    const rows = await listAllInstalls(handle.db);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.scopes).toEqual(["orders:read", "products:write"]);
    expect(rows[0]?.installedAt.toISOString()).toBe(T1.toISOString());
    expect((await loadAccessToken(handle.db, 101, ringA))?.token).toBe("svcpk_live_new");
  });

  it("reactivates an uninstalled store", async () => {
    await saveInstalledStores(handle.db, exchange({ s101: "svcpk_live_one" }), { at: T0, ring: ringA });
    expect(await recordUninstall(handle.db, { storeId: 101, installId: 11, at: T1 })).toBe(true);
    expect(await loadAccessToken(handle.db, 101, ringA)).toBeNull();
    await saveInstalledStores(handle.db, exchange({ s101: "svcpk_live_two" }), { at: T2, ring: ringA });
    const row = await findInstall(handle.db, 101);
    expect(row).toMatchObject({ state: "active", uninstalledAt: null });
    expect(row?.stateChangedAt.toISOString()).toBe(T2.toISOString());
    expect((await loadAccessToken(handle.db, 101, ringA))?.token).toBe("svcpk_live_two");
  });

  it("stores all or none: a failing store rolls back the others", async () => {
    await saveInstalledStores(handle.db, exchange({ s101: "svcpk_live_keep" }), { at: T0, ring: ringA });
    // The second store's id overflows the integer column: its insert fails, and 101's new token must not stick.
    const failing = {
      scopes: ["orders:read"],
      stores: [
        { storeId: 101, storeName: "Amina Couture", installId: 11, accessToken: "svcpk_live_replaced" },
        { storeId: 3_000_000_000, storeName: "Too big", installId: 13, accessToken: "svcpk_live_fails" },
      ],
    };
    await expect(saveInstalledStores(handle.db, failing, { at: T1, ring: ringA })).rejects.toThrow();
    expect((await loadAccessToken(handle.db, 101, ringA))?.token).toBe("svcpk_live_keep");
    expect(await listAllInstalls(handle.db)).toHaveLength(1);
  });

  it("replaces a stale row of another store holding the same install id (platform data wiped)", async () => {
    await saveInstalledStores(handle.db, exchange({ s101: "svcpk_live_before_reset" }), { at: T0, ring: ringA });
    await saveInstalledStores(
      handle.db,
      { scopes: ["orders:read"], stores: [{ storeId: 102, storeName: "Amina Maison", installId: 11, accessToken: "svcpk_live_after" }] },
      { at: T1, ring: ringA },
    );
    expect((await listAllInstalls(handle.db)).map((row) => [row.storeId, row.installId])).toEqual([[102, 11]]);
    expect((await loadAccessToken(handle.db, 102, ringA))?.token).toBe("svcpk_live_after");
  });
});

describe("install states", () => {
  it("recordUninstall matches the install by its install id, whatever the clocks say", async () => {
    // Installed at T1 by our clock; the platform's uninstalled_at (T0) is earlier: a skewed clock must not matter.
    await saveInstalledStores(handle.db, exchange({ s101: "svcpk_live_fresh" }), { at: T1, ring: ringA });
    expect(await recordUninstall(handle.db, { storeId: 101, installId: 99, at: T0 })).toBe(false);
    expect(await recordUninstall(handle.db, { storeId: 102, installId: 11, at: T0 })).toBe(false);
    expect((await loadAccessToken(handle.db, 101, ringA))?.token).toBe("svcpk_live_fresh");
    expect(await recordUninstall(handle.db, { storeId: 101, installId: 11, at: T0 })).toBe(true);
    const row = await findInstall(handle.db, 101);
    expect(row).toMatchObject({ state: "uninstalled", tokenCiphertext: null, tokenKeyId: null });
    expect(row?.uninstalledAt?.toISOString()).toBe(T0.toISOString());
    expect(row?.stateChangedAt.toISOString()).toBe(T0.toISOString());
    // A second notice changes nothing.
    expect(await recordUninstall(handle.db, { storeId: 101, installId: 11, at: T2 })).toBe(false);
    expect((await findInstall(handle.db, 101))?.uninstalledAt?.toISOString()).toBe(T0.toISOString());
  });

  it("recordInstallState destroys the token only for revoked and uninstalled", async () => {
    await saveInstalledStores(handle.db, exchange({ s101: "svcpk_live_a", s102: "svcpk_live_b" }), { at: T0, ring: ringA });
    await recordInstallState(handle.db, 101, "app_suspended", T1);
    // A suspension is the platform's to lift: the token is kept, and still handed out like the API client uses it.
    expect((await loadAccessToken(handle.db, 101, ringA))?.token).toBe("svcpk_live_a");
    expect((await findInstall(handle.db, 101))?.tokenCiphertext).not.toBeNull();
    // Lifted suspension: the same token works again.
    await recordInstallState(handle.db, 101, "active", T2);
    expect((await loadAccessToken(handle.db, 101, ringA))?.token).toBe("svcpk_live_a");

    const revoked = await recordInstallState(handle.db, 102, "revoked", T1);
    expect(revoked).toMatchObject({ state: "revoked", tokenCiphertext: null, tokenKeyId: null });
    expect(revoked?.stateChangedAt.toISOString()).toBe(T1.toISOString());
    expect(await recordInstallState(handle.db, 999, "revoked")).toBeNull();
  });

  it("recordInstallState keeps the time of an uninstall (a 403 app_uninstalled), and only of an uninstall", async () => {
    await saveInstalledStores(handle.db, exchange({ s101: "svcpk_live_a", s102: "svcpk_live_b" }), { at: T0, ring: ringA });
    expect(await recordInstallState(handle.db, 102, "app_suspended", T1)).toMatchObject({ uninstalledAt: null });
    const uninstalled = await recordInstallState(handle.db, 101, "uninstalled", T1);
    expect(uninstalled).toMatchObject({ state: "uninstalled", tokenCiphertext: null, tokenKeyId: null });
    expect(uninstalled?.uninstalledAt?.toISOString()).toBe(T1.toISOString());
    // Told again later: the uninstall keeps its first time.
    expect((await recordInstallState(handle.db, 101, "uninstalled", T2))?.uninstalledAt?.toISOString()).toBe(T1.toISOString());
  });

  it("recordInstallState with expectedCiphertext changes only a row that still holds that token, in another state", async () => {
    await saveInstalledStores(handle.db, exchange({ s101: "svcpk_live_old" }), { at: T0, ring: ringA });
    const old = (await findInstall(handle.db, 101))!.tokenCiphertext!;
    const suspended = await recordInstallState(handle.db, 101, "app_suspended", T1, { expectedCiphertext: old });
    expect(suspended).toMatchObject({ state: "app_suspended", tokenCiphertext: old });
    // Already in that state: nothing to write, and the state keeps the moment it began.
    expect(await recordInstallState(handle.db, 101, "app_suspended", T2, { expectedCiphertext: old })).toBeNull();
    expect((await findInstall(handle.db, 101))?.stateChangedAt.toISOString()).toBe(T1.toISOString());

    await saveInstalledStores(handle.db, exchange({ s101: "svcpk_live_new" }), { at: T2, ring: ringA });
    expect(await recordInstallState(handle.db, 101, "revoked", T2, { expectedCiphertext: old })).toBeNull();
    expect(await findInstall(handle.db, 101)).toMatchObject({ state: "active" });
    expect((await loadAccessToken(handle.db, 101, ringA))?.token).toBe("svcpk_live_new");

    const current = (await findInstall(handle.db, 101))!.tokenCiphertext!;
    const revoked = await recordInstallState(handle.db, 101, "revoked", T2, { expectedCiphertext: current });
    expect(revoked).toMatchObject({ state: "revoked", tokenCiphertext: null, tokenKeyId: null });
    expect(await recordInstallState(handle.db, 999, "revoked", T2, { expectedCiphertext: current })).toBeNull();
  });

  it("lists and finds installs by store ids and install id", async () => {
    await saveInstalledStores(handle.db, exchange({ s101: "svcpk_live_a", s102: "svcpk_live_b" }), { at: T0, ring: ringA });
    expect((await listInstallsByStoreIds(handle.db, [102, 999])).map((row) => row.storeId)).toEqual([102]);
    expect(await listInstallsByStoreIds(handle.db, [])).toEqual([]);
    expect((await findInstallByInstallId(handle.db, 12))?.storeId).toBe(102);
  });
});

describe("loadAccessToken", () => {
  it("reports a token sealed with an unconfigured key as the cipher's own error, naming the key only", async () => {
    await saveInstalledStores(handle.db, exchange({ s101: "svcpk_live_secret" }), { at: T0, ring: ringA });
    const error = await loadAccessToken(handle.db, 101, keyRing(keyB)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TokenCipherError);
    expect((error as TokenCipherError).code).toBe("unknown_key");
    expect((error as TokenCipherError).message).toContain(ringA.current.id);
    expect((error as TokenCipherError).message).not.toContain("svcpk_live_");
  });

  it("openInstallToken opens a suspended install's token, and nothing once it is destroyed", async () => {
    await saveInstalledStores(handle.db, exchange({ s101: "svcpk_live_kept" }), { at: T0, ring: ringA });
    const suspended = await recordInstallState(handle.db, 101, "app_plan_required", T1);
    expect(openInstallToken(suspended!, ringA)).toBe("svcpk_live_kept");
    const revoked = await recordInstallState(handle.db, 101, "revoked", T2);
    expect(openInstallToken(revoked!, ringA)).toBeNull();
  });

  it("uses the process's key ring by default", async () => {
    await saveInstalledStores(handle.db, exchange({ s101: "svcpk_live_env" }), { at: T0 });
    expect((await loadAccessToken(handle.db, 101))?.token).toBe("svcpk_live_env");
  });
});

describe("rotateTokenKeys", () => {
  it("re-encrypts every token under the new key, is idempotent, and reports tokens no key opens", async () => {
    await saveInstalledStores(handle.db, exchange({ s101: "svcpk_live_a", s102: "svcpk_live_b" }), { at: T0, ring: ringA });
    const ringB = keyRing(keyB, [keyA]);
    const report = await rotateTokenKeys(handle.db, ringB);
    expect(report.rotated.sort()).toEqual([101, 102]);
    expect(report.failed).toEqual([]);
    for (const row of await listAllInstalls(handle.db)) expect(row.tokenKeyId).toBe(tokenKeyFromBase64(keyB).id);
    // After rotation the old key can go.
    const onlyB = keyRing(keyB);
    expect((await loadAccessToken(handle.db, 101, onlyB))?.token).toBe("svcpk_live_a");
    expect((await loadAccessToken(handle.db, 102, onlyB))?.token).toBe("svcpk_live_b");
    expect(await rotateTokenKeys(handle.db, ringB)).toEqual({ rotated: [], skipped: [], failed: [] });

    const keyC = randomBytes(32).toString("base64");
    const missingB = await rotateTokenKeys(handle.db, keyRing(keyC));
    expect(missingB.rotated).toEqual([]);
    expect(missingB.failed.map((failure) => failure.storeId).sort()).toEqual([101, 102]);
    expect(missingB.failed[0]?.keyId).toBe(tokenKeyFromBase64(keyB).id);
  });

  it("leaves uninstalled rows (no token) alone", async () => {
    await saveInstalledStores(handle.db, exchange({ s101: "svcpk_live_a" }), { at: T0, ring: ringA });
    await recordUninstall(handle.db, { storeId: 101, installId: 11, at: T1 });
    expect(await rotateTokenKeys(handle.db, keyRing(keyB, [keyA]))).toEqual({ rotated: [], skipped: [], failed: [] });
  });
});
