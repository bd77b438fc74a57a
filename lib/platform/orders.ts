import "server-only";
import { z } from "zod";
import type { OrderCopy, OrderCopyItem } from "@/db/order-copy";
import { phoneKey } from "@/lib/phone";
import { PlatformError } from "./errors";
import { defineResource, intLike, isoDate, listEnvelope, money, optionalText, paginate, parseAnswer, toPage, type Page } from "./resource";

export type OrderStatus = "pending" | "confirmed" | "processing" | "shipped" | "delivered" | "cancelled" | "returned";

/** An order line as the platform describes it, field for field the line the database stores. */
export type PlatformOrderItem = OrderCopyItem;

/**
 * An order as the platform describes it (webhook `data.order` + `data.items`, or an orders list item): the copy the
 * database stores (db/order-copy.ts), with its store.
 */
export type PlatformOrder = OrderCopy & { storeId: number };

const orderItemSchema = z.looseObject({
  product_id: intLike.nullish(),
  variant_id: intLike.nullish(),
  product_name: optionalText,
  variant_name: optionalText,
  sku: optionalText,
  price: money.nullish(),
  quantity: intLike.nullish(),
  total: money.nullish(),
  source: optionalText,
});

const ORDER_FIELDS = [
  "id",
  "store_id",
  "order_number",
  "store_seq",
  "status",
  "payment_status",
  "payment_method",
  "delivery_type",
  "desk_name",
  "customer_name",
  "customer_phone",
  "customer_email",
  "wilaya_id",
  "wilaya_name",
  "commune",
  "address",
  "subtotal",
  "shipping_cost",
  "discount",
  "total",
  "promo_code",
  "customer_notes",
  "tracking_number",
  "delivery_company",
  "created_at",
  "updated_at",
  "items",
] as const;

const orderSchema = z.looseObject({
  id: intLike,
  store_id: intLike,
  order_number: z.string(),
  store_seq: intLike.nullish(),
  status: z.string(),
  payment_status: optionalText,
  payment_method: optionalText,
  delivery_type: optionalText,
  desk_name: optionalText,
  customer_name: optionalText,
  customer_phone: optionalText,
  customer_email: optionalText,
  wilaya_id: intLike.nullish(),
  wilaya_name: optionalText,
  commune: optionalText,
  address: optionalText,
  subtotal: money.nullish(),
  shipping_cost: money.nullish(),
  discount: money.nullish(),
  total: money.nullish(),
  promo_code: optionalText,
  customer_notes: optionalText,
  tracking_number: optionalText,
  delivery_company: optionalText,
  created_at: isoDate,
  updated_at: isoDate,
  items: z.array(orderItemSchema).nullish(),
});

type RawItem = z.output<typeof orderItemSchema>;

const KNOWN = new Set<string>(ORDER_FIELDS);

function toItem(raw: RawItem): PlatformOrderItem {
  return {
    productId: raw.product_id ?? null,
    variantId: raw.variant_id ?? null,
    productName: raw.product_name ?? null,
    variantName: raw.variant_name ?? null,
    sku: raw.sku ?? null,
    price: raw.price ?? null,
    quantity: raw.quantity ?? null,
    total: raw.total ?? null,
    source: raw.source ?? null,
  };
}

/**
 * One order as the platform describes it, from an orders list item (`{ ...order, items? }`) or a webhook's
 * `data` (`{ order, items, previous_status? }`). Money arrives as numbers or strings and leaves as decimal strings;
 * unknown fields are kept in `extra`. Throws PlatformError (kind "protocol") naming the first bad field.
 */
export function parsePlatformOrder(raw: unknown): PlatformOrder {
  const source =
    raw && typeof raw === "object" && "order" in raw && (raw as { order: unknown }).order && typeof (raw as { order: unknown }).order === "object"
      ? { ...((raw as { order: Record<string, unknown> }).order), ...("items" in raw ? { items: (raw as { items: unknown }).items } : {}) }
      : raw;
  const result = orderSchema.safeParse(source);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new PlatformError({
      kind: "protocol",
      status: null,
      code: "invalid_order",
      message: `An order from the platform did not have the documented shape${issue && issue.path.length ? ` at ${issue.path.join(".")}` : ""}: ${issue?.message ?? "unknown problem"}.`,
    });
  }
  const order = result.data;
  const extra = Object.fromEntries(Object.entries(order).filter(([key]) => !KNOWN.has(key)));
  return {
    id: order.id,
    storeId: order.store_id,
    orderNumber: order.order_number,
    storeSeq: order.store_seq ?? null,
    status: order.status,
    paymentStatus: order.payment_status ?? null,
    paymentMethod: order.payment_method ?? null,
    deliveryType: order.delivery_type ?? null,
    deskName: order.desk_name ?? null,
    customerName: order.customer_name ?? null,
    customerPhone: order.customer_phone ?? null,
    customerPhoneKey: phoneKey(order.customer_phone),
    customerEmail: order.customer_email ?? null,
    wilayaId: order.wilaya_id ?? null,
    wilayaName: order.wilaya_name ?? null,
    commune: order.commune ?? null,
    address: order.address ?? null,
    subtotal: order.subtotal ?? null,
    shippingCost: order.shipping_cost ?? null,
    discount: order.discount ?? null,
    total: order.total ?? null,
    promoCode: order.promo_code ?? null,
    customerNotes: order.customer_notes ?? null,
    trackingNumber: order.tracking_number ?? null,
    deliveryCompany: order.delivery_company ?? null,
    createdAt: order.created_at,
    updatedAt: order.updated_at,
    items: order.items ? order.items.map(toItem) : null,
    extra,
  };
}

export type OrderListParams = {
  /** Orders created at or after this instant. */
  since?: Date | string;
  status?: OrderStatus | string;
  customerPhone?: string;
  cursor?: string;
  limit?: number;
};

// Items are validated one by one by parsePlatformOrder, which also reshapes them.
const orderList = listEnvelope(z.unknown());

/** `client.orders`: the store's orders, a page at a time or all of them (the poller and the backfill read these). */
export const orders = defineResource((call) => {
  const list = async (params: OrderListParams = {}): Promise<Page<PlatformOrder>> => {
    const response = await call("GET", "/v1/orders", {
      query: {
        since: params.since,
        status: params.status,
        customer_phone: params.customerPhone,
        cursor: params.cursor,
        limit: params.limit,
      },
    });
    const raw = parseAnswer(orderList, response.data, "order list", response.requestId);
    return toPage(raw, parsePlatformOrder);
  };
  return {
    list,
    /** Every order matching the filters, page after page. */
    iterate: (params: Omit<OrderListParams, "cursor"> & { cursor?: string } = {}) =>
      paginate((cursor) => list({ ...params, cursor }), params.cursor),
  };
});
