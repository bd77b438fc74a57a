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
 * The counts for each of these phone keys (orders.customer_phone_key: every spelling of a number has the same key)
 * that has orders. One statement on orders_store_phone_key_idx, whatever the number of keys.
 */
export async function orderCountsByPhoneKey(db: DbOrTx, storeId: number, keys: readonly string[]): Promise<Map<string, PhoneOrderCounts>> {
  if (keys.length === 0) return new Map();
  const rows = await db
    .select({
      key: orders.customerPhoneKey,
      orders: sql<number>`count(*)::int`,
      delivered: sql<number>`(count(*) filter (where ${orders.status} = 'delivered'))::int`,
      returned: sql<number>`(count(*) filter (where ${orders.status} = 'returned'))::int`,
    })
    .from(orders)
    .where(and(eq(orders.storeId, storeId), inArray(orders.customerPhoneKey, [...keys])))
    .groupBy(orders.customerPhoneKey);
  return new Map(rows.map((row) => [row.key ?? "", { orders: Number(row.orders), delivered: Number(row.delivered), returned: Number(row.returned) }]));
}
