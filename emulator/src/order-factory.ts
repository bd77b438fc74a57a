import { DELIVERY_COMPANIES, WILAYAS, productsOf } from "./catalog";
import { nextId } from "./ids";
import type { Customer, EmulatorState, Order, OrderItem, OrderStatus } from "./model";

export const ORDER_STATUSES: OrderStatus[] = ["pending", "confirmed", "processing", "shipped", "delivered", "cancelled", "returned"];

type Random = () => number;

function pick<T>(random: Random, values: readonly T[]): T {
  return values[Math.floor(random() * values.length)]!;
}

function hex8(random: Random): string {
  return Math.floor(random() * 0xffffffff).toString(16).padStart(8, "0");
}

export function orderNumber(storeId: number, createdAt: Date, random: Random): string {
  const ymd = createdAt.toISOString().slice(0, 10).replace(/-/g, "");
  return `ORD-${storeId}-${ymd}-${hex8(random)}`;
}

export function trackingNumber(random: Random): string {
  return `TRK${Math.floor(random() * 1e10).toString().padStart(10, "0")}`;
}

function buildItems(storeId: number, random: Random): OrderItem[] {
  const products = productsOf(storeId);
  const count = 1 + Math.floor(random() * 3);
  const items: OrderItem[] = [];
  for (let index = 0; index < count; index += 1) {
    const product = products[(Math.floor(random() * products.length) + index) % products.length]!;
    const quantity = 1 + Math.floor(random() * 3);
    const variantIndex = product.variants.length ? Math.floor(random() * product.variants.length) : -1;
    items.push({
      product_id: product.id,
      variant_id: variantIndex >= 0 ? product.id * 10 + variantIndex + 1 : null,
      product_name: product.name,
      variant_name: variantIndex >= 0 ? product.variants[variantIndex]! : null,
      sku: `SKU-${product.id}${variantIndex >= 0 ? `-${product.variants[variantIndex]}` : ""}`,
      price: product.price,
      quantity,
      total: product.price * quantity,
      source: "storefront",
    });
  }
  return items;
}

/**
 * A complete order as the platform would store it. `overrides` may set any field; totals follow the items unless
 * they are overridden too.
 */
export function buildOrder(
  state: EmulatorState,
  storeId: number,
  options: { random: Random; createdAt: Date; status: OrderStatus; updatedAt?: Date; customer?: Customer; overrides?: Partial<Order> },
): Order {
  const { random, createdAt } = options;
  const overrides = options.overrides ?? {};
  const customers = state.customers.filter((candidate) => candidate.storeId === storeId);
  const customer = options.customer ?? (customers.length ? pick(random, customers) : undefined);
  const wilaya = WILAYAS.find((candidate) => candidate.id === customer?.wilayaId) ?? pick(random, WILAYAS);
  const items = overrides.items ?? buildItems(storeId, random);
  const subtotal = items.reduce((sum, item) => sum + item.total, 0);
  const home = random() < 0.6;
  const shippingCost = home ? 600 + Math.floor(random() * 4) * 100 : 400;
  const promo = random() < 0.15;
  const discount = promo ? Math.round(subtotal * 0.1) : 0;
  const status = overrides.status ?? options.status;
  const shippedLike = status === "shipped" || status === "delivered" || status === "returned";
  const seq = nextId(state, `store_seq:${storeId}`);
  const order: Order = {
    id: nextId(state, "order"),
    store_id: storeId,
    order_number: orderNumber(storeId, createdAt, random),
    store_seq: seq,
    status,
    payment_status: status === "delivered" ? "paid" : status === "returned" || status === "cancelled" ? "refunded" : "unpaid",
    payment_method: "cod",
    delivery_type: home ? "home" : "desk",
    desk_name: home ? null : `Agence ${wilaya.communes[0]}`,
    customer_name: customer?.name ?? "Client",
    customer_phone: customer?.phone ?? "0550000000",
    customer_email: customer?.email ?? null,
    wilaya_id: wilaya.id,
    wilaya_name: wilaya.name,
    commune: pick(random, wilaya.communes),
    address: `${1 + Math.floor(random() * 120)} rue des Oliviers`,
    subtotal,
    shipping_cost: shippingCost,
    discount,
    total: subtotal + shippingCost - discount,
    promo_code: promo ? "BIENVENUE10" : null,
    customer_notes: random() < 0.2 ? "Appeler avant la livraison" : null,
    tracking_number: shippedLike ? trackingNumber(random) : null,
    delivery_company: shippedLike ? pick(random, DELIVERY_COMPANIES) : null,
    created_at: createdAt.toISOString(),
    updated_at: (options.updatedAt ?? createdAt).toISOString(),
    items,
  };
  const merged = { ...order, ...overrides, id: order.id, store_id: storeId, store_seq: seq };
  if (overrides.items && overrides.subtotal === undefined) {
    merged.subtotal = subtotal;
    merged.total = overrides.total ?? subtotal + merged.shipping_cost - merged.discount;
  }
  return merged;
}
