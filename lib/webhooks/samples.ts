import { randomBytes } from "node:crypto";
import { ORDER_STATUS_EVENTS } from "./envelope";
import { signatureHeaders } from "./signature";

/**
 * Sample deliveries shaped like the platform's (snake_case, documented fields only). Used by the trigger tool
 * (`npm run webhooks`), the bench and the tests, so all three send what the platform sends.
 */

export function newEventId(): string {
  return `evt_${randomBytes(12).toString("hex")}`;
}

export type SampleOrderOptions = {
  storeId: number;
  orderId: number;
  status?: string;
  createdAt?: Date;
  updatedAt?: Date;
  customerPhone?: string;
  itemCount?: number;
};

export function sampleOrderData(options: SampleOrderOptions): { order: Record<string, unknown>; items: Record<string, unknown>[] } {
  const createdAt = options.createdAt ?? new Date();
  const updatedAt = options.updatedAt ?? createdAt;
  const day = createdAt.toISOString().slice(0, 10).replaceAll("-", "");
  const hex = (options.orderId % 0xffffffff).toString(16).padStart(8, "0");
  const items = Array.from({ length: options.itemCount ?? 2 }, (_, index) => ({
    product_id: 9000 + index,
    variant_id: index === 0 ? null : 9100 + index,
    product_name: index === 0 ? "Caftan brodé" : `Article ${index + 1}`,
    variant_name: index === 0 ? null : "Taille M",
    sku: `SKU-${9000 + index}`,
    price: 2500,
    quantity: index + 1,
    total: 2500 * (index + 1),
    source: "storefront",
  }));
  const subtotal = items.reduce((sum, item) => sum + item.total, 0);
  return {
    order: {
      id: options.orderId,
      store_id: options.storeId,
      order_number: `ORD-${options.storeId}-${day}-${hex}`,
      store_seq: options.orderId % 100000,
      status: options.status ?? "pending",
      payment_status: "unpaid",
      payment_method: "cod",
      delivery_type: "home",
      desk_name: null,
      customer_name: "Yasmine Benali",
      customer_phone: options.customerPhone ?? "0555123456",
      customer_email: null,
      wilaya_id: 16,
      wilaya_name: "الجزائر",
      commune: "Bab Ezzouar",
      address: "12 rue des Jasmins",
      subtotal,
      shipping_cost: 400,
      discount: 0,
      total: subtotal + 400,
      promo_code: null,
      customer_notes: null,
      tracking_number: null,
      delivery_company: null,
      created_at: createdAt.toISOString(),
      updated_at: updatedAt.toISOString(),
    },
    items,
  };
}

export type SampleEventOptions = {
  id?: string;
  storeId?: number;
  orderId?: number;
  /** For status events: defaults to the status the event names. */
  status?: string;
  previousStatus?: string | null;
  createdAt?: Date;
  updatedAt?: Date;
  installId?: number;
  clientId?: string;
  at?: Date;
};

/** The envelope of a sample event; unknown event names get an empty `data`, as a future event might. */
export function sampleEnvelope(event: string, options: SampleEventOptions = {}): Record<string, unknown> {
  const at = options.at ?? new Date();
  const storeId = event === "webhook.verify" ? 0 : (options.storeId ?? 101);
  let data: Record<string, unknown> = {};
  if (event === "order.created" || event in ORDER_STATUS_EVENTS) {
    const status = options.status ?? (event === "order.created" ? "pending" : ORDER_STATUS_EVENTS[event as keyof typeof ORDER_STATUS_EVENTS]);
    const orderData = sampleOrderData({
      storeId,
      orderId: options.orderId ?? Math.floor(Math.random() * 1e9) + 1,
      status,
      createdAt: options.createdAt ?? at,
      updatedAt: options.updatedAt ?? at,
    });
    data = event === "order.created" ? orderData : { ...orderData, previous_status: options.previousStatus ?? "pending" };
  } else if (event === "app.uninstalled") {
    data = {
      install_id: options.installId ?? 1,
      client_id: options.clientId ?? "svcapp_5ca1ab1e00000000000d",
      store_id: storeId,
      uninstalled_at: at.toISOString(),
    };
  }
  return { id: options.id ?? newEventId(), event, created_at: at.toISOString(), store_id: storeId, data };
}

export type SignedDelivery = { body: Buffer; headers: Record<string, string> };

/** The body bytes and the headers the platform would send with them. */
export function signDelivery(
  envelope: Record<string, unknown>,
  secret: string,
  options: { timestamp?: number; deliveryId?: string | null } = {},
): SignedDelivery {
  const body = Buffer.from(JSON.stringify(envelope), "utf8");
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": "Svc-Webhooks/1.0",
    "x-svc-event": String(envelope.event),
    ...signatureHeaders(secret, body, timestamp),
  };
  const deliveryId = options.deliveryId === undefined ? `dlv_${randomBytes(8).toString("hex")}` : options.deliveryId;
  if (deliveryId !== null) headers["x-svc-delivery"] = deliveryId;
  return { body, headers };
}
