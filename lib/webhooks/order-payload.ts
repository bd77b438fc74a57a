import { z } from "zod";
import type { PlatformOrder, PlatformOrderItem } from "@/lib/platform/types";

/**
 * The platform's order as webhooks carry it (`data.order` + `data.items`, snake_case), reshaped into the app's
 * PlatformOrder. Lenient on purpose: only what the app stores is required, unknown fields are kept in `extra`,
 * because refusing a genuine delivery over a new field would make the platform retry it to death.
 */

const timestamp = z
  .string()
  .refine((value) => !Number.isNaN(Date.parse(value)), "must be an ISO 8601 date-time")
  .transform((value) => new Date(value));

// Money arrives as JSON numbers or decimal strings; both are kept as the decimal string PostgreSQL stores exactly.
const money = z
  .union([z.number().finite(), z.string().regex(/^-?\d+(\.\d+)?$/)])
  .nullish()
  .transform((value) => (value === null || value === undefined ? null : String(value)));

const optionalInt = z.number().int().nullish().transform((value) => value ?? null);
const optionalText = z.string().nullish().transform((value) => value ?? null);

const ORDER_FIELDS = {
  id: z.number().int().positive(),
  store_id: z.number().int().positive(),
  order_number: z.string().min(1),
  store_seq: optionalInt,
  status: z.string().min(1),
  payment_status: optionalText,
  payment_method: optionalText,
  delivery_type: optionalText,
  desk_name: optionalText,
  customer_name: optionalText,
  customer_phone: optionalText,
  customer_email: optionalText,
  wilaya_id: optionalInt,
  wilaya_name: optionalText,
  commune: optionalText,
  address: optionalText,
  subtotal: money,
  shipping_cost: money,
  discount: money,
  total: money,
  promo_code: optionalText,
  customer_notes: optionalText,
  tracking_number: optionalText,
  delivery_company: optionalText,
  created_at: timestamp,
  updated_at: timestamp,
};

const KNOWN_ORDER_KEYS = new Set([...Object.keys(ORDER_FIELDS), "items"]);

export const rawOrderSchema = z.looseObject(ORDER_FIELDS);

export const rawOrderItemSchema = z.looseObject({
  product_id: optionalInt,
  variant_id: optionalInt,
  product_name: optionalText,
  variant_name: optionalText,
  sku: optionalText,
  price: money,
  quantity: optionalInt,
  total: money,
  source: optionalText,
});

export type RawOrder = z.infer<typeof rawOrderSchema>;
export type RawOrderItem = z.infer<typeof rawOrderItemSchema>;

export function toPlatformOrderItem(item: RawOrderItem): PlatformOrderItem {
  return {
    productId: item.product_id,
    variantId: item.variant_id,
    productName: item.product_name,
    variantName: item.variant_name,
    sku: item.sku,
    price: item.price,
    quantity: item.quantity,
    total: item.total,
    source: item.source,
  };
}

export function toPlatformOrder(order: RawOrder, items: RawOrderItem[] | null): PlatformOrder {
  const extra = Object.fromEntries(Object.entries(order).filter(([key]) => !KNOWN_ORDER_KEYS.has(key)));
  return {
    id: order.id,
    storeId: order.store_id,
    orderNumber: order.order_number,
    storeSeq: order.store_seq,
    status: order.status,
    paymentStatus: order.payment_status,
    paymentMethod: order.payment_method,
    deliveryType: order.delivery_type,
    deskName: order.desk_name,
    customerName: order.customer_name,
    customerPhone: order.customer_phone,
    customerEmail: order.customer_email,
    wilayaId: order.wilaya_id,
    wilayaName: order.wilaya_name,
    commune: order.commune,
    address: order.address,
    subtotal: order.subtotal,
    shippingCost: order.shipping_cost,
    discount: order.discount,
    total: order.total,
    promoCode: order.promo_code,
    customerNotes: order.customer_notes,
    trackingNumber: order.tracking_number,
    deliveryCompany: order.delivery_company,
    createdAt: order.created_at,
    updatedAt: order.updated_at,
    items: items ? items.map(toPlatformOrderItem) : null,
    extra,
  };
}
