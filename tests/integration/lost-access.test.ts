import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { deleteExpiredSessions, endSessionFor, findEndedGrants } from "@/db/queries/sessions";
import { endedGrants, installs, sessions } from "@/db/schema";
import { saveInstalledStores } from "@/lib/installs/tokens";
import { setLogSink } from "@/lib/log";
import { explainLostAccess, lostStores } from "@/lib/lost-access";
import { signIn, signOut, signOutEverywhere } from "@/lib/session-lifecycle";
import { ABSOLUTE_LIFETIME_MS, IDLE_TIMEOUT_MS } from "@/lib/session-policy";
import { receiveWebhookOutcome } from "@/lib/webhooks/receive";
import { sampleEnvelope } from "@/lib/webhooks/samples";
import { createTestDatabase, databaseKind } from "../helpers/database";
import { signedWebhookRequest } from "../helpers/webhook-request";

/**
 * What a browser is told about a store it can no longer open, against a real database: the browser that held it
 * learns why; a browser that never held it learns nothing (null, hence the plain 404).
 */

const SECRET = "svcwhsec_" + "5e".repeat(24);
const T0 = new Date("2026-05-01T08:00:00.000Z");
const at = (ms: number) => new Date(T0.getTime() + ms);
const MINUTE = 60_000;

let handle: DatabaseHandle;
let restoreLog: () => void;

async function device(storeIds: number[], now = T0): Promise<string> {
  return (await signIn(handle.db, { previousId: null, storeIds, now })).id;
}

async function uninstall(storeId: number, installId: number, when: Date) {
  const request = signedWebhookRequest(sampleEnvelope("app.uninstalled", { storeId, installId, at: when }), SECRET);
  return receiveWebhookOutcome(request, { db: handle.db, secret: SECRET });
}

const explain = (id: string | null, storeId: number | string, now = at(MINUTE)) =>
  explainLostAccess(handle.db, id, String(storeId), now);

describe(`lost access (${databaseKind()})`, () => {
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
    await handle.db.delete(endedGrants);
    await handle.db.delete(installs);
    await saveInstalledStores(
      handle.db,
      {
        scopes: ["orders:read"],
        stores: [101, 102].map((storeId) => ({ storeId, installId: storeId - 100, storeName: `Store ${storeId}`, accessToken: `svcpk_live_${storeId}` })),
      },
      { at: T0 },
    );
  });

  it("tells nothing while the browser may open the store, nor to a browser that never held it", async () => {
    const laptop = await device([101]);
    const other = await device([102]);
    expect(await explain(laptop, 101)).toBeNull();
    await signOut(handle.db, laptop, at(MINUTE));
    expect(await explain(other, 101)).toBeNull();
    expect(await explain(null, 101)).toBeNull();
    expect(await explain(laptop, 999)).toBeNull();
    expect(await explain(laptop, "abc")).toBeNull();
  });

  it("after a sign-out: signed out, with when, for each store the session held", async () => {
    const laptop = await device([101, 102]);
    await signOut(handle.db, laptop, at(5 * MINUTE));
    for (const storeId of [101, 102]) {
      expect(await explain(laptop, storeId)).toEqual({ storeId, storeName: `Store ${storeId}`, reason: "signed_out", at: at(5 * MINUTE) });
    }
  });

  it("after sign out everywhere: every session that held the store is told so, and only those", async () => {
    const laptop = await device([101]);
    const phone = await device([101, 102]);
    const elsewhere = await device([102]);
    await signOutEverywhere(handle.db, 101);
    expect((await explain(laptop, 101))?.reason).toBe("signed_out_everywhere");
    expect((await explain(phone, 101))?.reason).toBe("signed_out_everywhere");
    // The phone's whole session ended, its other store with it.
    expect((await explain(phone, 102))?.reason).toBe("signed_out_everywhere");
    expect(await explain(elsewhere, 102)).toBeNull();
  });

  it("after an uninstall: uninstalled, at the platform's time, while the session keeps its other store", async () => {
    const laptop = await device([101, 102]);
    const when = new Date("2026-05-01T08:03:00.000Z");
    await uninstall(101, 1, when);
    expect(await explain(laptop, 101)).toEqual({ storeId: 101, storeName: "Store 101", reason: "uninstalled", at: when });
    expect(await explain(laptop, 102)).toBeNull();
    // Signing out later does not hide the uninstall: installing again is still the fix.
    await signOut(handle.db, laptop, at(10 * MINUTE));
    expect((await explain(laptop, 101))?.reason).toBe("uninstalled");
    expect((await explain(laptop, 102))?.reason).toBe("signed_out");
  });

  it("after an idle timeout: expired, before and after the session row is deleted", async () => {
    const laptop = await device([101]);
    const idle = at(IDLE_TIMEOUT_MS);
    expect((await explain(laptop, 101, idle))?.reason).toBe("expired");
    await endSessionFor(handle.db, laptop, "expired", idle);
    expect((await explain(laptop, 101, idle))?.reason).toBe("expired");
  });

  it("the purge of expired sessions remembers them as expired", async () => {
    const laptop = await device([101]);
    const removed = await deleteExpiredSessions(handle.db, { now: at(ABSOLUTE_LIFETIME_MS), idleTimeoutMs: IDLE_TIMEOUT_MS, absoluteLifetimeMs: ABSOLUTE_LIFETIME_MS });
    expect(removed).toBe(1);
    expect((await findEndedGrants(handle.db, laptop)).map((row) => [row.install.storeId, row.reason])).toEqual([[101, "expired"]]);
  });

  it("lists the stores of a session found expired before the session is written off", async () => {
    const laptop = await device([101, 102]);
    expect(await lostStores(handle.db, laptop, [], at(IDLE_TIMEOUT_MS - 1))).toEqual([]);
    const idle = (await lostStores(handle.db, laptop, [], at(IDLE_TIMEOUT_MS))).map((lost) => [lost.storeId, lost.reason, lost.at]);
    expect(idle.sort()).toEqual([
      [101, "expired", null],
      [102, "expired", null],
    ]);
    await endSessionFor(handle.db, laptop, "expired", at(IDLE_TIMEOUT_MS));
    // Written off: the same two, from the ended grants, once each.
    expect((await lostStores(handle.db, laptop, [], at(IDLE_TIMEOUT_MS))).map((lost) => [lost.storeId, lost.reason]).sort()).toEqual([
      [101, "expired"],
      [102, "expired"],
    ]);
  });

  it("lists the stores a session lost, except those it holds again, and nothing without a session", async () => {
    const laptop = await device([101, 102]);
    await uninstall(101, 1, at(2 * MINUTE));
    expect((await lostStores(handle.db, laptop, [102], at(3 * MINUTE))).map((lost) => [lost.storeId, lost.reason])).toEqual([[101, "uninstalled"]]);
    await signOut(handle.db, laptop, at(5 * MINUTE));
    const all = (await lostStores(handle.db, laptop, [], at(6 * MINUTE))).map((lost) => [lost.storeId, lost.reason]);
    expect(all.sort()).toEqual([
      [101, "uninstalled"],
      [102, "signed_out"],
    ]);
    expect(await lostStores(handle.db, laptop, [102], at(6 * MINUTE))).toHaveLength(1);
    expect(await lostStores(handle.db, null, [])).toEqual([]);
  });
});
