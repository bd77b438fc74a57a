import { and, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { orders } from "@/db/schema";

/**
 * A customer's history with the store from the app's own orders (filled by webhooks and the sync): what a
 * cash-on-delivery merchant checks before confirming an order. "Returned" is the platform's `returned` status, the
 * parcel that came back: refused at the door or never collected.
 */
export type PhoneOrderCounts = { orders: number; delivered: number; returned: number };

/**
 * The counts for each of these phone spellings that has orders, keyed by the spelling as stored. One statement on
 * orders_store_phone_idx (store_id, customer_phone), whatever the number of phones.
 */
export async function orderCountsByPhone(db: DbOrTx, storeId: number, phones: readonly string[]): Promise<Map<string, PhoneOrderCounts>> {
  if (phones.length === 0) return new Map();
  const rows = await db
    .select({
      phone: orders.customerPhone,
      orders: sql<number>`count(*)::int`,
      delivered: sql<number>`(count(*) filter (where ${orders.status} = 'delivered'))::int`,
      returned: sql<number>`(count(*) filter (where ${orders.status} = 'returned'))::int`,
    })
    .from(orders)
    .where(and(eq(orders.storeId, storeId), inArray(orders.customerPhone, [...phones])))
    .groupBy(orders.customerPhone);
  return new Map(rows.map((row) => [row.phone ?? "", { orders: Number(row.orders), delivered: Number(row.delivered), returned: Number(row.returned) }]));
}
