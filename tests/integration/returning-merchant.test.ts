import { sealData } from "iron-session";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { findSessionStoreIds } from "@/db/queries/sessions";
import { endedGrants, installs, sessions } from "@/db/schema";
import {
  INSTALLED_BEFORE_MAX_STORES,
  INSTALLED_BEFORE_TTL_SECONDS,
  installedBeforeStores,
  returningKey,
  returningProof,
  sealInstalledBefore,
} from "@/lib/oauth/returning-merchant";
import { signIn, signOut } from "@/lib/session-lifecycle";
import { createTestDatabase, databaseKind } from "@/tests/helpers/database";

/**
 * The returning merchant's proofs (lib/oauth/returning-merchant.ts): the sealed "installed before" cookie and the
 * session, against a real database. What a proof buys at the budgets is tests/integration/install-budget.test.ts,
 * and the flood against the emulator tests/integration/install-flood.test.ts.
 */

const SECRET = "returning-merchant-test-secret-0123456789";
const DAY_MS = 24 * 60 * 60 * 1000;

let handle: DatabaseHandle;

beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle?.close();
});
beforeEach(async () => {
  await handle.db.delete(sessions);
  await handle.db.delete(endedGrants);
  await handle.db.delete(installs);
  await handle.db.insert(installs).values(
    [7, 11, 12, 13].map((storeId) => ({ storeId, installId: 9000 + storeId, storeName: `Store ${storeId}`, scopes: ["orders:read"] })),
  );
});
afterEach(() => {
  vi.useRealTimers();
});

describe("the \"installed before\" cookie", () => {
  it("names the stores a consent installed, sealed: none of them readable, tampering or another secret reads as none", async () => {
    const sealed = await sealInstalledBefore([12, 11], [], SECRET);
    expect(sealed).not.toContain("stores");
    expect(sealed).not.toContain("[11,12]");
    expect(await installedBeforeStores(sealed, SECRET)).toEqual([11, 12]);
    expect(await installedBeforeStores(sealed, `${SECRET}-rotated`)).toEqual([]);
    expect(await installedBeforeStores(`${sealed.slice(0, -4)}AAAA`, SECRET)).toEqual([]);
    expect(await installedBeforeStores("Fe26.2*garbage", SECRET)).toEqual([]);
    expect(await installedBeforeStores("", SECRET)).toEqual([]);
    expect(await installedBeforeStores(undefined, SECRET)).toEqual([]);
  });

  it("keeps the stores it named before, each once, ascending, at most 50 (the lowest)", async () => {
    const first = await sealInstalledBefore([13], [], SECRET);
    const merged = await sealInstalledBefore([11, 13], await installedBeforeStores(first, SECRET), SECRET);
    expect(await installedBeforeStores(merged, SECRET)).toEqual([11, 13]);
    expect(INSTALLED_BEFORE_MAX_STORES).toBe(50);
    const many = Array.from({ length: 60 }, (_, i) => 100 + i).reverse();
    const stores = await installedBeforeStores(await sealInstalledBefore(many, [1], SECRET), SECRET);
    expect(stores).toHaveLength(50);
    expect(stores[0]).toBe(1);
    expect(stores.at(-1)).toBe(148);
    // Anything that is no store id is dropped before sealing.
    expect(await installedBeforeStores(await sealInstalledBefore([0, -3, 1.5, Number.NaN, 2 ** 53, 7], [], SECRET), SECRET)).toEqual([7]);
  });

  it("lives a year: read until then, nothing after", async () => {
    expect(INSTALLED_BEFORE_TTL_SECONDS).toBe(365 * 24 * 60 * 60);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-01-01T00:00:00Z"));
    const sealed = await sealInstalledBefore([11], [], SECRET);
    vi.setSystemTime(new Date(Date.parse("2026-01-01T00:00:00Z") + 364 * DAY_MS));
    expect(await installedBeforeStores(sealed, SECRET)).toEqual([11]);
    vi.setSystemTime(new Date(Date.parse("2026-01-01T00:00:00Z") + 366 * DAY_MS));
    expect(await installedBeforeStores(sealed, SECRET)).toEqual([]);
  });

  it("reads only values sealed as this cookie: another sealed value, or a malformed store list, is none", async () => {
    const seal = (data: unknown) => sealData(data, { password: SECRET, ttl: INSTALLED_BEFORE_TTL_SECONDS });
    expect(await installedBeforeStores(await seal({ purpose: "installed-before", stores: [11] }), SECRET)).toEqual([11]);
    // The install attempt cookie is sealed with the same secret: it proves nothing.
    expect(await installedBeforeStores(await seal({ attempts: [], stores: [11] }), SECRET)).toEqual([]);
    expect(await installedBeforeStores(await seal({ purpose: "other", stores: [11] }), SECRET)).toEqual([]);
    expect(await installedBeforeStores(await seal({ purpose: "installed-before", stores: 11 }), SECRET)).toEqual([]);
    expect(await installedBeforeStores(await seal({ purpose: "installed-before", stores: [11, "12"] }), SECRET)).toEqual([]);
    expect(await installedBeforeStores(await seal({ purpose: "installed-before", stores: [11, 0] }), SECRET)).toEqual([]);
    expect(await installedBeforeStores(await seal({ purpose: "installed-before", stores: [11, 2.5] }), SECRET)).toEqual([]);
    expect(await installedBeforeStores(await seal({ purpose: "installed-before", stores: [-11] }), SECRET)).toEqual([]);
    expect(await installedBeforeStores(await seal({ purpose: "installed-before", stores: [2 ** 53] }), SECRET)).toEqual([]);
    expect(await installedBeforeStores(await seal({ purpose: "installed-before", stores: [12, 11, 12] }), SECRET)).toEqual([11, 12]);
    expect(await installedBeforeStores(await seal({ purpose: "installed-before", stores: [] }), SECRET)).toEqual([]);
    expect(await installedBeforeStores(await seal("installed-before"), SECRET)).toEqual([]);
  });
});

describe("a proof's key", () => {
  it("is the lowest store it names, whatever the order; none without a store", () => {
    expect(returningKey([13, 11, 12])).toBe("store:11");
    expect(returningKey([7])).toBe("store:7");
    expect(returningKey([])).toBeNull();
    expect(returningKey([0, -1, 1.5])).toBeNull();
    expect(returningKey([0, 12])).toBe("store:12");
  });
});

describe(`the session as a proof (${databaseKind()})`, () => {
  it("a live session names its stores; after sign-out its endings still do (12 hours); a stranger's id names none", async () => {
    const live = await signIn(handle.db, { previousId: null, storeIds: [13, 12], now: new Date() });
    expect(await findSessionStoreIds(handle.db, live.id)).toEqual([12, 13]);
    await signOut(handle.db, live.id);
    expect(await handle.db.select().from(sessions)).toEqual([]);
    expect(await findSessionStoreIds(handle.db, live.id)).toEqual([12, 13]);
    expect(await findSessionStoreIds(handle.db, "f".repeat(64))).toEqual([]);
  });

  it("holds and held stores together, each once", async () => {
    const session = await signIn(handle.db, { previousId: null, storeIds: [12, 13], now: new Date() });
    await handle.db.insert(endedGrants).values({ sessionId: session.id, storeId: 11, reason: "store_closed", endedAt: new Date() });
    await handle.db.insert(endedGrants).values({ sessionId: session.id, storeId: 12, reason: "store_closed", endedAt: new Date() });
    expect(await findSessionStoreIds(handle.db, session.id)).toEqual([11, 12, 13]);
  });

  it("the proof a browser presents: its cookie's stores and its session's, keyed by the lowest", async () => {
    const session = await signIn(handle.db, { previousId: null, storeIds: [12], now: new Date() });
    const cookie = await sealInstalledBefore([13], [], SECRET);
    const proof = (installedBefore: string | undefined, sessionId: string | null, password = SECRET) =>
      returningProof(handle.db, { installedBefore, sessionId, password });
    expect(await proof(cookie, session.id)).toBe("store:12");
    expect(await proof(cookie, null)).toBe("store:13");
    expect(await proof(undefined, session.id)).toBe("store:12");
    expect(await proof(await sealInstalledBefore([7], [], SECRET), session.id)).toBe("store:7");
    expect(await proof(undefined, null)).toBeNull();
    expect(await proof(cookie, null, `${SECRET}-other`)).toBeNull();
    expect(await proof("not a seal", "0".repeat(64))).toBeNull();
  });
});
