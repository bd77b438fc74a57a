import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orders, type NewOrder } from "@/db/schema";
import { CUSTOMERS_PAGE_SIZE, loadCustomersPage, parseCustomersQuery, platformPhone, type CustomerRow } from "@/lib/customers/customers-page";
import type { Customer as EmulatorCustomer } from "@/emulator/src/model";
import { phoneKey } from "@/lib/phone";
import { startHarness, type Harness } from "./platform-harness";

/**
 * The customers page's data on the in-process emulator and a real database: 120 customers of one store paged
 * through by the platform's cursor (each once, newest first), the platform's phone filter however the number is
 * typed, and each customer's orders, delivered and returned parcels counted from the app's own orders table,
 * whichever spelling of the number an order carries.
 */

const STORE = 101;
const OTHER_STORE = 102;
const CUSTOMERS = 120;
const DAY = 86_400_000;

let h: Harness;
let nextOrderId = 1;

function phoneOf(index: number): string {
  return `0${["5", "6", "7"][index % 3]}${String(10_000_000 + index * 7_919).slice(-8)}`;
}

function order(storeId: number, phone: string, status: string): NewOrder {
  const id = nextOrderId++;
  const createdAt = new Date(Date.UTC(2026, 10, 1) + id * 60_000);
  return {
    storeId,
    id,
    orderNumber: `ORD-${storeId}-20261101-${id.toString(16).padStart(8, "0")}`,
    status,
    customerPhone: phone,
    // As the write path stores it (lib/platform/orders.ts): the key beside the number as received.
    customerPhoneKey: phoneKey(phone),
    createdAt,
    updatedAt: createdAt,
  };
}

/** Every page from the first, following the page's own cursor. */
async function allPages(query: { phone: string | null }) {
  const pages: CustomerRow[][] = [];
  let cursor: string | null = null;
  do {
    const page = await loadCustomersPage(h.client(STORE), h.db, STORE, { ...query, cursor });
    pages.push(page.rows);
    cursor = page.nextCursor;
    expect(pages.length).toBeLessThan(20);
  } while (cursor);
  return pages;
}

beforeAll(async () => {
  h = await startHarness();
  await h.install(STORE);
  const state = h.emulator.ctx.state;
  state.customers = state.customers.filter((customer) => customer.storeId !== STORE);
  const now = Date.parse("2026-11-20T10:00:00.000Z");
  for (let index = 0; index < CUSTOMERS; index += 1) {
    const customer: EmulatorCustomer = {
      id: 90_000 + index,
      storeId: STORE,
      name: `Customer ${index}`,
      phone: phoneOf(index),
      email: null,
      wilayaId: 16,
      // Pairs share an instant, so the cursor's tie on the id is crossed too.
      createdAt: new Date(now - Math.floor(index / 2) * DAY).toISOString(),
    };
    state.customers.push(customer);
  }
  // Customer 5: three orders (one as +213..., one returned, one delivered); customer 6: one returned, typed with
  // 00213; the same number in another store counts nothing here.
  const five = phoneOf(5);
  const six = phoneOf(6);
  await h.db.insert(orders).values([
    order(STORE, five, "delivered"),
    order(STORE, `+213${five.slice(1)}`, "returned"),
    order(STORE, five, "confirmed"),
    order(STORE, `00213${six.slice(1)}`, "returned"),
    order(OTHER_STORE, five, "returned"),
  ]);
}, 90_000);

afterAll(async () => {
  await h?.close();
});

describe("the customers page's data", () => {
  it(`pages through ${CUSTOMERS} customers newest first, ${CUSTOMERS_PAGE_SIZE} a page, each once`, async () => {
    const pages = await allPages({ phone: null });
    expect(pages.map((page) => page.length)).toEqual(Array.from({ length: CUSTOMERS / CUSTOMERS_PAGE_SIZE }, () => CUSTOMERS_PAGE_SIZE));
    const ids = pages.flat().map((customer) => customer.id);
    expect(new Set(ids).size).toBe(CUSTOMERS);
    // Newest first, and within one instant the higher id first, as the platform lists.
    const expected = h.emulator.ctx.state.customers
      .filter((customer) => customer.storeId === STORE)
      .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || b.id - a.id)
      .map((customer) => String(customer.id));
    expect(ids).toEqual(expected);
    const calls = h.sent.filter((request) => request.url.pathname === "/v1/customers");
    expect(calls.map((request) => request.url.searchParams.get("limit"))).toEqual(calls.map(() => String(CUSTOMERS_PAGE_SIZE)));
  });

  it("counts each customer's orders, delivered and returned parcels from the app's orders, over every spelling of the number", async () => {
    const rows = (await allPages({ phone: null })).flat();
    const byId = new Map(rows.map((row) => [row.id, row.history]));
    expect(byId.get("90005")).toEqual({ orders: 3, delivered: 1, returned: 1 });
    expect(byId.get("90006")).toEqual({ orders: 1, delivered: 0, returned: 1 });
    expect(byId.get("90007")).toEqual({ orders: 0, delivered: 0, returned: 0 });
    expect(rows.filter((row) => row.history.orders > 0).map((row) => row.id).sort()).toEqual(["90005", "90006"]);
  });

  it("filters by phone on the platform, the number typed in any of its spellings", async () => {
    const wanted = phoneOf(42);
    for (const typed of [wanted, `+213 ${wanted.slice(1, 4)} ${wanted.slice(4, 6)} ${wanted.slice(6, 8)} ${wanted.slice(8)}`, `00213${wanted.slice(1)}`, `+213 (0) ${wanted.slice(1, 4)}-${wanted.slice(4)}`]) {
      const query = parseCustomersQuery({ phone: typed });
      expect(query.phone && platformPhone(query.phone)).toBe(wanted);
      const pages = await allPages({ phone: query.phone });
      expect(pages.flat().map((customer) => customer.id), typed).toEqual(["90042"]);
      expect(h.sent.at(-1)?.url.searchParams.get("phone")).toBe(wanted);
    }
    expect((await allPages({ phone: "0999999999" })).flat()).toEqual([]);
  });

  it("refuses a typed phone holding control characters rather than sending it", () => {
    expect(parseCustomersQuery({ phone: "0550\u0000123" })).toEqual({ phone: null, cursor: null, phoneRefused: true });
    expect(parseCustomersQuery({ phone: "\u200f0550 12 34 56", cursor: " abc " })).toEqual({ phone: "0550123456", cursor: "abc", phoneRefused: false });
  });

  it("lets a cursor the platform refuses reach the page as a PlatformError", async () => {
    await expect(loadCustomersPage(h.client(STORE), h.db, STORE, { phone: null, cursor: "not-a-cursor" })).rejects.toMatchObject({ status: 400 });
  });
});
