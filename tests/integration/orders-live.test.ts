import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { startBackfillRow } from "@/db/queries/backfills";
import { listOrdersPage } from "@/db/queries/order-views";
import { findSessionInstalls } from "@/db/queries/sessions";
import { installs, orders, type NewOrder } from "@/db/schema";
import { closedInstallStates } from "@/lib/installs/state";
import { orderListOptions, parseOrderFilters } from "@/lib/orders/filters";
import { phoneKey } from "@/lib/phone";
import { checkOrdersPage, ordersPageVersion, ordersProbeHref } from "@/lib/orders/live";
import type { CurrentSession } from "@/lib/session";
import { signIn } from "@/lib/session-lifecycle";
import { createTestDatabase } from "@/tests/helpers/database";
import { saveFixtureStores } from "@/tests/helpers/fixture-stores";

/**
 * The orders page's probe (lib/orders/live.ts) on a real database: it answers "unchanged" exactly while a reload
 * would show the same page, for the page's own filters, and refuses what the page refuses.
 */

const STORE = 101;
const T0 = new Date("2026-11-01T10:00:00Z");

/** A row as the write path stores it: the phone's key beside the phone (lib/phone.ts). */
function order(id: number, overrides: Partial<NewOrder> = {}): NewOrder {
  const createdAt = new Date(T0.getTime() - id * 60_000);
  const row: NewOrder = {
    storeId: STORE,
    id,
    orderNumber: `ORD-${STORE}-${id}`,
    status: id % 2 ? "pending" : "shipped",
    customerName: `Client ${id}`,
    customerPhone: `05550000${String(id % 3).padStart(2, "0")}`,
    wilayaName: "وهران",
    total: "2500.00",
    createdAt,
    updatedAt: createdAt,
    ...overrides,
  };
  return { ...row, customerPhoneKey: phoneKey(row.customerPhone) };
}

let handle: DatabaseHandle;
let sessionId: string;

async function session(): Promise<CurrentSession> {
  const found = await findSessionInstalls(handle.db, sessionId, { closedStates: closedInstallStates() });
  if (!found) throw new Error("the test's session is gone");
  return { id: sessionId, installs: found.installs, backfills: found.backfills };
}

/** The version the page renders for these query parameters, as app/stores/[storeId]/orders/page.tsx computes it. */
async function pageVersion(query: Record<string, string> = {}): Promise<string> {
  const current = await session();
  const page = await listOrdersPage(handle.db, STORE, orderListOptions(parseOrderFilters(query)));
  return ordersPageVersion({ installs: current.installs, backfill: current.backfills.get(STORE) ?? null, page });
}

async function check(query: Record<string, string>, seen: string | null, storeId = String(STORE)) {
  return checkOrdersPage(handle.db, await session(), storeId, query, seen);
}

beforeAll(async () => {
  handle = await createTestDatabase();
  await saveFixtureStores(handle.db);
  sessionId = (await signIn(handle.db, { previousId: null, storeIds: [101, 102], now: new Date() })).id;
});

afterAll(async () => {
  await handle.close();
});

beforeEach(async () => {
  await handle.db.delete(orders);
  await handle.db.update(installs).set({ state: "active", storeName: "Amina Couture" }).where(eq(installs.storeId, STORE));
  await handle.db.insert(orders).values([1, 2, 3, 4, 5].map((id) => order(id)));
});

describe("the orders page's probe", () => {
  it("answers unchanged for the version the page rendered, and changed with the new one for any other", async () => {
    const version = await pageVersion();
    expect(version).toMatch(/^[\w-]{22}$/);
    expect(await check({}, version)).toEqual({ outcome: "unchanged" });
    expect(await check({}, null)).toEqual({ outcome: "changed", version });
    expect(await check({}, "an-older-version-xxxxx")).toEqual({ outcome: "changed", version });
  });

  it("sees a new order, a status change and an edited row on the page it watches", async () => {
    const first = await pageVersion();
    await handle.db.insert(orders).values(order(0));
    const withNew = await check({}, first);
    expect(withNew.outcome).toBe("changed");
    const second = await pageVersion();
    expect(withNew).toEqual({ outcome: "changed", version: second });

    await handle.db.update(orders).set({ status: "delivered" }).where(eq(orders.id, 3));
    expect((await check({}, second)).outcome).toBe("changed");
    const third = await pageVersion();
    await handle.db.update(orders).set({ customerName: "Client trois" }).where(eq(orders.id, 3));
    expect((await check({}, third)).outcome).toBe("changed");
  });

  it("watches only the page's own filters: an order the filter hides changes nothing", async () => {
    const shipped = await pageVersion({ status: "shipped" });
    // Order 7 is pending: not on the ?status=shipped page.
    await handle.db.insert(orders).values(order(7));
    expect(await check({ status: "shipped" }, shipped)).toEqual({ outcome: "unchanged" });
    await handle.db.insert(orders).values(order(8));
    expect((await check({ status: "shipped" }, shipped)).outcome).toBe("changed");

    // The phone as the merchant typed it, international spelling and spaces: the same customer's page.
    const phone = await pageVersion({ phone: "0555000001" });
    expect(await check({ phone: "+213 555 00 00 01" }, phone)).toEqual({ outcome: "unchanged" });
    await handle.db.insert(orders).values(order(10, { customerPhone: "+213555000001" }));
    expect((await check({ phone: "0555000001" }, phone)).outcome).toBe("changed");
  });

  it("sees what the page shows around the rows: a store disconnected, renamed, its import's progress", async () => {
    const before = await pageVersion();
    await handle.db.update(installs).set({ state: "app_suspended" }).where(eq(installs.storeId, STORE));
    expect((await check({}, before)).outcome).toBe("changed");
    const suspended = await pageVersion();
    await handle.db.update(installs).set({ storeName: "Amina Couture Oran" }).where(eq(installs.storeId, STORE));
    expect((await check({}, suspended)).outcome).toBe("changed");
    const renamed = await pageVersion();
    await startBackfillRow(handle.db, { storeId: STORE, runId: "run-1", at: T0 });
    expect((await check({}, renamed)).outcome).toBe("changed");
  });

  it("refuses what the page refuses: a store outside the session, a malformed id, a page marker never written", async () => {
    const version = await pageVersion();
    expect(await check({}, version, "201")).toEqual({ outcome: "not_found" });
    expect(await check({}, version, "101abc")).toEqual({ outcome: "not_found" });
    expect(await check({ cursor: "not-a-cursor" }, version)).toEqual({ outcome: "not_found" });
    expect(await checkOrdersPage(handle.db, null, String(STORE), {}, version)).toEqual({ outcome: "not_found" });
    // A store the platform cut the app off from leaves the session's open stores: the page answers 404 then.
    await handle.db.update(installs).set({ state: "uninstalled" }).where(eq(installs.storeId, STORE));
    expect(await check({}, version)).toEqual({ outcome: "not_found" });
  });

  it("writes the page's filters and version into the probe's address", () => {
    expect(ordersProbeHref(STORE, { status: "shipped", phone: "0555000001", cursor: null }, "abc")).toBe(
      "/api/stores/101/orders/version?status=shipped&phone=0555000001&v=abc",
    );
    expect(ordersProbeHref(STORE, { status: null, phone: null, cursor: "eyJ9" }, "v1")).toBe("/api/stores/101/orders/version?cursor=eyJ9&v=v1");
  });
});
