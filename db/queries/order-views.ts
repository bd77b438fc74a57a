import type { PGlite } from "@electric-sql/pglite";
import { and, asc, eq } from "drizzle-orm";
import type { Sql as PostgresSql } from "postgres";
import type { DbOrTx } from "@/db/client";
import { orderItems, orders, orderStatusHistory, type Order, type OrderItem, type OrderStatusChange } from "@/db/schema";

/**
 * Read queries behind the orders pages. They read only the app's own database (filled by webhooks and the sync),
 * never the platform, so the pages stay fast and keep working while the platform is down.
 */

export const ORDERS_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 200;

export type OrderListRow = Pick<
  Order,
  "id" | "orderNumber" | "createdAt" | "customerName" | "customerPhone" | "wilayaName" | "total" | "status"
>;

export type OrderListPage = {
  rows: OrderListRow[];
  /** Opaque cursor of the page after this one, or null on the last page. */
  nextCursor: string | null;
};

/**
 * The keys of the last row shown. created_at is kept in whole microseconds (PostgreSQL's precision) as a decimal
 * string: a JavaScript Date would round it to milliseconds and could skip or repeat rows at a page boundary.
 */
export type OrderCursor = { createdAtMicros: string; id: number };

const MIN_CURSOR_MICROS = -62_135_596_800_000_000n;
const MAX_CURSOR_MICROS = 253_402_300_799_999_999n;

export function encodeOrderCursor(cursor: OrderCursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAtMicros, cursor.id]), "utf8").toString("base64url");
}

/**
 * Null for anything that is not a cursor this module wrote. The query then shows the first page; the orders page
 * answers 404 before it gets that far.
 */
export function decodeOrderCursor(value: string | null | undefined): OrderCursor | null {
  if (!value || value.length > 200) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
    if (!Array.isArray(parsed) || parsed.length !== 2) return null;
    const [micros, id] = parsed as unknown[];
    if (typeof micros !== "string" || !/^-?\d{1,19}$/.test(micros)) return null;
    // Within what a timestamptz can hold (years 1 to 9999 here): past it the database fails instead of answering.
    const instant = BigInt(micros);
    if (instant < MIN_CURSOR_MICROS || instant > MAX_CURSOR_MICROS) return null;
    if (typeof id !== "number" || !Number.isSafeInteger(id)) return null;
    return { createdAtMicros: micros, id };
  } catch {
    return null;
  }
}

export type OrderListOptions = {
  status?: string | null;
  /**
   * Customer phone: the key to match (orders.customer_phone_key, lib/phone.ts phoneKey of what was typed), so every
   * spelling of the number is found; none or empty means no phone filter.
   */
  phoneKey?: string | null;
  cursor?: string | null;
  limit?: number;
};

/** A statement as the driver takes it: text with $n placeholders, and their values. */
export type Statement = { text: string; params: unknown[] };

const LIST_COLUMNS =
  'select "id", "order_number", "customer_name", "customer_phone", "wilaya_name", "total"::text as "total", "status", ' +
  '((extract(epoch from "created_at") * 1000000)::bigint)::text as "created_at_micros" from "orders"';

/**
 * The statement behind listOrdersPage, so tests and tooling/bench/scale.ts can EXPLAIN exactly what the page runs. Written
 * out rather than built by drizzle: the page runs it on every request, and drizzle's building and row mapping cost
 * more CPU than the database's index range scan. One text per filter shape (a prepared statement each).
 */
export function ordersPageQuery(storeId: number, options: OrderListOptions, rows: number): Statement {
  const params: unknown[] = [storeId];
  let where = '"store_id" = $1';
  if (options.status) {
    params.push(options.status);
    where += ` and "status" = $${params.length}`;
  }
  if (options.phoneKey) {
    params.push(options.phoneKey);
    where += ` and "customer_phone_key" = $${params.length}`;
  }
  const cursor = decodeOrderCursor(options.cursor);
  if (cursor) {
    params.push(cursor.createdAtMicros, cursor.id);
    // A row comparison, so PostgreSQL turns it into one index range condition.
    where += ` and ("created_at", "id") < (timestamptz 'epoch' + $${params.length - 1}::bigint * interval '1 microsecond', $${params.length}::bigint)`;
  }
  params.push(rows);
  // NULLS LAST as in the indexes (drizzle writes `desc()` indexes that way): a plain DESC sorts nulls first, which
  // the index cannot serve, and PostgreSQL would scan and sort the whole store instead.
  const text = `${LIST_COLUMNS} where ${where} order by "created_at" desc nulls last, "id" desc nulls last limit $${params.length}`;
  return { text, params };
}

type ListRow = {
  id: string | number | bigint;
  order_number: string;
  customer_name: string | null;
  customer_phone: string | null;
  wilaya_name: string | null;
  total: string | null;
  status: string;
  created_at_micros: string;
};

/**
 * Runs a statement on the driver drizzle holds for `db`, as drizzle itself would send it (for a page, getDb()'s
 * handle: the statement deadline, prepared once per connection), without drizzle's query building and row mapping.
 */
async function runStatement<T>(db: DbOrTx, { text, params }: Statement): Promise<T[]> {
  const client = (db as unknown as { session: { client: unknown } }).session.client;
  if (typeof (client as { unsafe?: unknown }).unsafe === "function") {
    return (await (client as PostgresSql).unsafe(text, params as never[], { prepare: true })) as unknown as T[];
  }
  return (await (client as Pick<PGlite, "query">).query<T>(text, params)).rows;
}

/** An instant in whole microseconds since the epoch (a decimal string) as a Date, to the millisecond below it. */
function dateOfMicros(micros: string): Date {
  const value = BigInt(micros);
  const millis = value / 1000n - (value % 1000n < 0n ? 1n : 0n);
  return new Date(Number(millis));
}

/**
 * One page of a store's orders, newest first, by keyset on (created_at desc, id desc): each page costs an index
 * range scan of `limit` rows however deep it is, which OFFSET could not promise on 100,000 orders. The status
 * filter uses orders_store_status_created_idx, the phone filter orders_store_phone_key_idx.
 */
export async function listOrdersPage(db: DbOrTx, storeId: number, options: OrderListOptions = {}): Promise<OrderListPage> {
  const limit = Math.min(Math.max(Math.trunc(options.limit ?? ORDERS_PAGE_SIZE), 1), MAX_PAGE_SIZE);
  const found = await runStatement<ListRow>(db, ordersPageQuery(storeId, options, limit + 1));
  const hasMore = found.length > limit;
  const page = hasMore ? found.slice(0, limit) : found;
  const last = page.at(-1);
  return {
    rows: page.map((row) => ({
      id: Number(row.id),
      orderNumber: row.order_number,
      createdAt: dateOfMicros(row.created_at_micros),
      customerName: row.customer_name,
      customerPhone: row.customer_phone,
      wilayaName: row.wilaya_name,
      total: row.total,
      status: row.status,
    })),
    nextCursor: hasMore && last ? encodeOrderCursor({ createdAtMicros: last.created_at_micros, id: Number(last.id) }) : null,
  };
}

export type OrderDetail = {
  order: Order;
  items: OrderItem[];
  /** Oldest first. */
  history: OrderStatusChange[];
};

export async function getOrderDetail(db: DbOrTx, storeId: number, orderId: number): Promise<OrderDetail | null> {
  const [order] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.storeId, storeId), eq(orders.id, orderId)))
    .limit(1);
  if (!order) return null;
  const [items, history] = await Promise.all([
    db
      .select()
      .from(orderItems)
      .where(and(eq(orderItems.storeId, storeId), eq(orderItems.orderId, orderId)))
      .orderBy(asc(orderItems.position)),
    db
      .select()
      .from(orderStatusHistory)
      .where(and(eq(orderStatusHistory.storeId, storeId), eq(orderStatusHistory.orderId, orderId)))
      .orderBy(asc(orderStatusHistory.changedAt), asc(orderStatusHistory.id)),
  ]);
  return { order, items, history };
}
