import { and, asc, eq, inArray, lt, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { orderItems, orderStatusHistory, orders, type NewOrder } from "@/db/schema";
import type { OrderCopy } from "@/db/order-copy";

/**
 * The one write path for orders: webhooks and the poller both land here, so they converge on the same rows.
 * The platform's updated_at is the version: a copy older than (or as old as) the stored one never overwrites it,
 * whatever order deliveries arrive in.
 */

export type UpsertOrderOptions = {
  /** The webhook event that carried this copy, kept on the status history row it creates. */
  eventId?: string;
  /**
   * From a status event: the status before this one (null for order.created). When absent (a poll), history is
   * derived from the stored row: a new order, or a status different from the stored one, adds a row.
   */
  previousStatus?: string | null;
  /** The status the event announces, when it differs from the order snapshot's (defaults to order.status). */
  status?: string;
};

export type UpsertOrderResult = {
  /** inserted: new order; updated: newer copy replaced the stored one; stale: stored copy was as new or newer. */
  outcome: "inserted" | "updated" | "stale";
  /** Whether a status history row was added by this call. */
  historyAdded: boolean;
};

function orderValues(storeId: number, order: OrderCopy, now: Date): NewOrder {
  return {
    storeId,
    id: order.id,
    orderNumber: order.orderNumber,
    storeSeq: order.storeSeq,
    status: order.status,
    paymentStatus: order.paymentStatus,
    paymentMethod: order.paymentMethod,
    deliveryType: order.deliveryType,
    deskName: order.deskName,
    customerName: order.customerName,
    customerPhone: order.customerPhone,
    customerPhoneKey: order.customerPhoneKey,
    customerEmail: order.customerEmail,
    wilayaId: order.wilayaId,
    wilayaName: order.wilayaName,
    commune: order.commune,
    address: order.address,
    subtotal: order.subtotal,
    shippingCost: order.shippingCost,
    discount: order.discount,
    total: order.total,
    promoCode: order.promoCode,
    customerNotes: order.customerNotes,
    trackingNumber: order.trackingNumber,
    deliveryCompany: order.deliveryCompany,
    createdAt: order.createdAt,
    updatedAt: order.updatedAt,
    extra: Object.keys(order.extra).length > 0 ? order.extra : null,
    syncedAt: now,
  };
}

/** Run inside a transaction when combined with other writes (the webhook handler does). */
export async function upsertOrder(
  db: DbOrTx,
  storeId: number,
  order: OrderCopy,
  options: UpsertOrderOptions = {},
): Promise<UpsertOrderResult> {
  const fromEvent = options.previousStatus !== undefined;
  let storedStatus: string | null = null;
  if (!fromEvent) {
    const [stored] = await db
      .select({ status: orders.status })
      .from(orders)
      .where(and(eq(orders.storeId, storeId), eq(orders.id, order.id)))
      .limit(1);
    storedStatus = stored?.status ?? null;
  }

  const values = orderValues(storeId, order, new Date());
  const { storeId: _storeId, id: _id, ...changes } = values;
  const written = await db
    .insert(orders)
    .values(values)
    .onConflictDoUpdate({
      target: [orders.storeId, orders.id],
      set: changes,
      // The version guard: an update only when the incoming copy is strictly newer.
      setWhere: lt(orders.updatedAt, sql`excluded.updated_at`),
    })
    // xmax is 0 on a freshly inserted row version and non-zero on one written by the ON CONFLICT update.
    .returning({ inserted: sql<boolean>`(xmax = 0)` });

  const row = written[0];
  const outcome: UpsertOrderResult["outcome"] = !row ? "stale" : row.inserted ? "inserted" : "updated";

  if (outcome !== "stale" && order.items !== null) {
    // A new order has no items yet (the purge deletes items with their order), so only an update clears them.
    await replaceItems(db, storeId, order, outcome === "updated");
  }

  let historyAdded = false;
  if (fromEvent) {
    // Recorded even when the order row was newer: the order did pass through this status, and history is a set.
    historyAdded = await addHistory(db, {
      storeId,
      orderId: order.id,
      status: options.status ?? order.status,
      previousStatus: options.previousStatus ?? null,
      changedAt: order.updatedAt,
      eventId: options.eventId ?? null,
    });
  } else if (outcome === "inserted" || (outcome === "updated" && storedStatus !== order.status)) {
    historyAdded = await addHistory(db, {
      storeId,
      orderId: order.id,
      status: order.status,
      previousStatus: outcome === "inserted" ? null : storedStatus,
      changedAt: order.updatedAt,
      eventId: options.eventId ?? null,
    });
  }
  return { outcome, historyAdded };
}

async function replaceItems(db: DbOrTx, storeId: number, order: OrderCopy, clear: boolean): Promise<void> {
  if (clear) await db.delete(orderItems).where(and(eq(orderItems.storeId, storeId), eq(orderItems.orderId, order.id)));
  const items = order.items ?? [];
  if (items.length === 0) return;
  await db.insert(orderItems).values(
    items.map((item, position) => ({
      storeId,
      orderId: order.id,
      position,
      productId: item.productId,
      variantId: item.variantId,
      productName: item.productName,
      variantName: item.variantName,
      sku: item.sku,
      price: item.price,
      quantity: item.quantity,
      total: item.total,
      source: item.source,
    })),
  )
    // Belt and braces for a new order: leftover rows of an order deleted by hand are overwritten, not a failure
    // that would make the platform retry the event until it dies.
    .onConflictDoUpdate({
      target: [orderItems.storeId, orderItems.orderId, orderItems.position],
      set: {
        productId: sql`excluded.product_id`,
        variantId: sql`excluded.variant_id`,
        productName: sql`excluded.product_name`,
        variantName: sql`excluded.variant_name`,
        sku: sql`excluded.sku`,
        price: sql`excluded.price`,
        quantity: sql`excluded.quantity`,
        total: sql`excluded.total`,
        source: sql`excluded.source`,
      },
    });
}

type HistoryInput = {
  storeId: number;
  orderId: number;
  status: string;
  previousStatus: string | null;
  changedAt: Date;
  eventId: string | null;
};

/** One row per status an order reached; the unique index makes a repeated status a no-op. */
async function addHistory(db: DbOrTx, input: HistoryInput): Promise<boolean> {
  const inserted = await db
    .insert(orderStatusHistory)
    .values(input)
    .onConflictDoNothing({ target: [orderStatusHistory.storeId, orderStatusHistory.orderId, orderStatusHistory.status] })
    .returning({ id: orderStatusHistory.id });
  return inserted.length > 0;
}

export async function findOrder(db: DbOrTx, storeId: number, orderId: number) {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.storeId, storeId), eq(orders.id, orderId)))
    .limit(1);
  return row ?? null;
}

export async function listOrderItems(db: DbOrTx, storeId: number, orderId: number) {
  return db
    .select()
    .from(orderItems)
    .where(and(eq(orderItems.storeId, storeId), eq(orderItems.orderId, orderId)))
    .orderBy(asc(orderItems.position));
}

export async function listStatusHistory(db: DbOrTx, storeId: number, orderId: number) {
  return db
    .select()
    .from(orderStatusHistory)
    .where(and(eq(orderStatusHistory.storeId, storeId), eq(orderStatusHistory.orderId, orderId)))
    .orderBy(asc(orderStatusHistory.changedAt), asc(orderStatusHistory.id));
}

/** Removes every order, item and history row of these stores (retention purge). Returns the orders removed. */
export async function deleteOrdersOfStores(db: DbOrTx, storeIds: number[]): Promise<number> {
  if (storeIds.length === 0) return 0;
  await db.delete(orderItems).where(inArray(orderItems.storeId, storeIds));
  await db.delete(orderStatusHistory).where(inArray(orderStatusHistory.storeId, storeIds));
  const deleted = await db.delete(orders).where(inArray(orders.storeId, storeIds)).returning({ id: orders.id });
  return deleted.length;
}
