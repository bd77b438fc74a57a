import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawQuery, type DatabaseHandle } from "@/db/client";
import {
  decodeOrderCursor,
  encodeOrderCursor,
  getOrderDetail,
  listOrdersPage,
  ordersPageQuery,
  type OrderListRow,
} from "@/db/queries/order-views";
import { orderItems, orders, orderStatusHistory, type NewOrder } from "@/db/schema";
import { createTestDatabase } from "@/tests/helpers/database";

const STORE = 101;
const OTHER_STORE = 102;
const STATUSES = ["confirmed", "processing", "shipped", "delivered", "cancelled"];

function order(storeId: number, id: number, createdAt: Date, overrides: Partial<NewOrder> = {}): NewOrder {
  return {
    storeId,
    id,
    orderNumber: `ORD-${storeId}-20260101-${id.toString(16).padStart(8, "0")}`,
    status: STATUSES[id % STATUSES.length]!,
    customerName: `Customer ${id}`,
    customerPhone: `0555${String(id % 7).padStart(6, "0")}`,
    // A national number is its own key (lib/phone.ts phoneKey).
    customerPhoneKey: `0555${String(id % 7).padStart(6, "0")}`,
    wilayaName: "الجزائر",
    total: "1500.00",
    createdAt,
    updatedAt: createdAt,
    ...overrides,
  };
}

async function allPages(db: DatabaseHandle["db"], storeId: number, options: { status?: string; phoneKey?: string; limit: number }) {
  const seen: OrderListRow[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page = await listOrdersPage(db, storeId, { ...options, cursor });
    expect(page.rows.length).toBeLessThanOrEqual(options.limit);
    seen.push(...page.rows);
    cursor = page.nextCursor;
    pages += 1;
    expect(pages).toBeLessThan(100);
  } while (cursor);
  return { seen, pages };
}

function isNewestFirst(rows: OrderListRow[]): boolean {
  return rows.every((row, index) => {
    const previous = rows[index - 1];
    if (!previous) return true;
    const a = previous.createdAt.getTime();
    const b = row.createdAt.getTime();
    return a > b || (a === b && previous.id > row.id);
  });
}

describe("order views", () => {
  let handle: DatabaseHandle;
  const base = Date.UTC(2026, 0, 1, 10, 0, 0);

  beforeAll(async () => {
    handle = await createTestDatabase();
    const rows: NewOrder[] = [];
    // 120 orders in store 101; every third shares its timestamp with the next id so ties straddle page edges.
    for (let id = 1; id <= 120; id++) rows.push(order(STORE, id, new Date(base + Math.floor(id / 3) * 60_000)));
    for (let id = 1; id <= 10; id++) rows.push(order(OTHER_STORE, 1000 + id, new Date(base + id * 1000)));
    await handle.db.insert(orders).values(rows);
    // Microsecond timestamps that a millisecond Date cannot represent: the cursor must still split them exactly.
    await handle.db.execute(sql`
      insert into orders (store_id, id, order_number, status, created_at, updated_at)
      values (${STORE}, 5001, 'ORD-101-20260301-00001389', 'pending', '2026-03-01 12:00:00.123456+00', now()),
             (${STORE}, 5002, 'ORD-101-20260301-0000138a', 'pending', '2026-03-01 12:00:00.123457+00', now()),
             (${STORE}, 5003, 'ORD-101-20260301-0000138b', 'pending', '2026-03-01 12:00:00.123458+00', now())`);
    await handle.db.insert(orderItems).values([
      { storeId: STORE, orderId: 7, position: 1, productName: "Second", quantity: 1, price: "200.00", total: "200.00" },
      { storeId: STORE, orderId: 7, position: 0, productName: "First", quantity: 2, price: "650.00", total: "1300.00" },
    ]);
    await handle.db.insert(orderStatusHistory).values([
      { storeId: STORE, orderId: 7, status: "shipped", previousStatus: "confirmed", changedAt: new Date(base + 7_200_000) },
      { storeId: STORE, orderId: 7, status: "confirmed", previousStatus: "pending", changedAt: new Date(base + 3_600_000) },
    ]);
  });

  afterAll(async () => {
    await handle?.close();
  });

  it("walks every order of the store exactly once, newest first, across pages", async () => {
    const { seen, pages } = await allPages(handle.db, STORE, { limit: 7 });
    expect(seen).toHaveLength(123);
    expect(new Set(seen.map((row) => row.id)).size).toBe(123);
    expect(pages).toBe(Math.ceil(123 / 7));
    expect(isNewestFirst(seen.filter((row) => row.id < 5000))).toBe(true);
    expect(seen.some((row) => row.id > 1000 && row.id < 2000)).toBe(false);
  });

  it("splits rows that differ only in microseconds at a page boundary", async () => {
    const first = await listOrdersPage(handle.db, STORE, { limit: 1 });
    expect(first.rows.map((row) => row.id)).toEqual([5003]);
    const second = await listOrdersPage(handle.db, STORE, { limit: 1, cursor: first.nextCursor });
    expect(second.rows.map((row) => row.id)).toEqual([5002]);
    const third = await listOrdersPage(handle.db, STORE, { limit: 1, cursor: second.nextCursor });
    expect(third.rows.map((row) => row.id)).toEqual([5001]);
  });

  it("filters by status and by phone key, alone and together", async () => {
    const shipped = await allPages(handle.db, STORE, { status: "shipped", limit: 10 });
    expect(shipped.seen.length).toBe(24);
    expect(shipped.seen.every((row) => row.status === "shipped")).toBe(true);

    const phone = "0555000003";
    const byPhone = await allPages(handle.db, STORE, { phoneKey: phone, limit: 5 });
    expect(byPhone.seen.length).toBe(17);
    expect(byPhone.seen.every((row) => row.customerPhone === phone)).toBe(true);

    const both = await allPages(handle.db, STORE, { phoneKey: phone, status: "shipped", limit: 50 });
    expect(both.seen.map((row) => row.id).sort((a, b) => a - b)).toEqual(
      byPhone.seen.filter((row) => row.status === "shipped").map((row) => row.id).sort((a, b) => a - b),
    );
    expect(both.seen.length).toBeGreaterThan(0);

    const partialPhone = await listOrdersPage(handle.db, STORE, { phoneKey: "0555" });
    expect(partialPhone.rows).toHaveLength(0);
  });

  it("reads each row's values as the table holds them (the instant to the millisecond, amounts as decimal text)", async () => {
    await handle.db.insert(orders).values(
      order(OTHER_STORE, 1999, new Date(base + 86_400_000), { total: "12345.60", customerName: null, customerPhone: null, wilayaName: null }),
    );
    try {
      const [row] = (await listOrdersPage(handle.db, OTHER_STORE, { limit: 1 })).rows;
      const [stored] = await handle.db.select().from(orders).where(and(eq(orders.storeId, OTHER_STORE), eq(orders.id, 1999)));
      expect(row).toEqual({
        id: 1999,
        orderNumber: stored!.orderNumber,
        createdAt: stored!.createdAt,
        customerName: null,
        customerPhone: null,
        wilayaName: null,
        total: "12345.60",
        status: stored!.status,
      });
      expect(row!.createdAt.getTime()).toBe(base + 86_400_000);
      // Microseconds past a millisecond are dropped, as drizzle's Date for the same row drops them.
      const [fine] = (await listOrdersPage(handle.db, STORE, { limit: 1 })).rows;
      expect(fine!.createdAt.toISOString()).toBe("2026-03-01T12:00:00.123Z");
    } finally {
      await handle.db.delete(orders).where(and(eq(orders.storeId, OTHER_STORE), eq(orders.id, 1999)));
    }
  });

  it("keeps stores apart", async () => {
    const { seen } = await allPages(handle.db, OTHER_STORE, { limit: 50 });
    expect(seen.map((row) => row.id)).toEqual([1010, 1009, 1008, 1007, 1006, 1005, 1004, 1003, 1002, 1001]);
    expect(await getOrderDetail(handle.db, OTHER_STORE, 7)).toBeNull();
  });

  it("treats a tampered cursor as the first page", async () => {
    const first = await listOrdersPage(handle.db, STORE, { limit: 3 });
    const garbage = await listOrdersPage(handle.db, STORE, { limit: 3, cursor: "not-a-cursor" });
    expect(garbage.rows.map((row) => row.id)).toEqual(first.rows.map((row) => row.id));
    expect(decodeOrderCursor(Buffer.from('["1; drop table orders", 1]').toString("base64url"))).toBeNull();
    expect(decodeOrderCursor(Buffer.from('["12", 1.5]').toString("base64url"))).toBeNull();
    // Digits the database cannot turn into a timestamp: refused here, not by a failing query.
    expect(decodeOrderCursor(Buffer.from('["9999999999999999999",1]').toString("base64url"))).toBeNull();
    expect(decodeOrderCursor(Buffer.from('["-9999999999999999999",1]').toString("base64url"))).toBeNull();
    expect(decodeOrderCursor(Buffer.from('["253402300799999999",1]').toString("base64url"))).not.toBeNull();
    const cursor = { createdAtMicros: "1767261600123456", id: 42 };
    expect(decodeOrderCursor(encodeOrderCursor(cursor))).toEqual(cursor);
  });

  it("returns an order with its items in position order and its status history oldest first", async () => {
    const detail = await getOrderDetail(handle.db, STORE, 7);
    expect(detail?.order.orderNumber).toBe("ORD-101-20260101-00000007");
    expect(detail?.items.map((item) => item.productName)).toEqual(["First", "Second"]);
    expect(detail?.history.map((change) => change.status)).toEqual(["confirmed", "shipped"]);
    expect(await getOrderDetail(handle.db, STORE, 999_999)).toBeNull();
  });
});

describe("order list query plan", () => {
  // The embedded database plans tiny tables its own way; the plan that matters is the server's, on a big store.
  it.runIf(process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL)(
    "reads a page deep in a large store through the index, without sorting the store",
    async () => {
      const handle = await createTestDatabase();
      try {
        await handle.db.execute(sql`
          insert into orders (store_id, id, order_number, status, customer_phone, created_at, updated_at)
          select 101, n, 'ORD-' || n, (array['confirmed','shipped'])[1 + n % 2], '05' || (n % 500),
                 timestamptz '2025-01-01' + n * interval '1 minute', now()
          from generate_series(1, 20000) as n`);
        await handle.db.execute(sql`analyze orders`);
        const first = await listOrdersPage(handle.db, 101, { limit: 50 });
        for (const options of [{}, { cursor: first.nextCursor }, { status: "shipped", cursor: first.nextCursor }]) {
          const { text, params } = ordersPageQuery(101, options, 51);
          const plan = JSON.stringify(await rawQuery(handle.db)(`explain (format json) ${text}`, params));
          expect(plan).toMatch(/orders_store_(status_)?created_idx/);
          expect(plan).not.toContain('"Node Type":"Sort"');
        }
      } finally {
        await handle.close();
      }
    },
  );
});
