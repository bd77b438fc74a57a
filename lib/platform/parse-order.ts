import "server-only";
import { PlatformError } from "./errors";
import { ORDER_FIELDS, orderItemSchema, orderSchema } from "./schemas";
import type { PlatformOrder, PlatformOrderItem } from "./types";

type RawItem = ReturnType<typeof orderItemSchema.parse>;

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
