import { describe, expect, it } from "vitest";
import { parsePlatformOrder, PlatformError } from "@/lib/platform";

const order = {
  id: 9001,
  store_id: 101,
  order_number: "ORD-101-20250301-a1b2c3d4",
  store_seq: 12,
  status: "confirmed",
  payment_status: "unpaid",
  payment_method: "cod",
  delivery_type: "home",
  desk_name: null,
  customer_name: "Yasmine Benali",
  customer_phone: "0550123456",
  customer_email: null,
  wilaya_id: 16,
  wilaya_name: "الجزائر",
  commune: "Hydra",
  address: "12 rue des Pins",
  subtotal: 4500,
  shipping_cost: "400.00",
  discount: 0,
  total: 4900.5,
  promo_code: null,
  customer_notes: null,
  tracking_number: null,
  delivery_company: null,
  created_at: "2025-03-01T10:00:00+01:00",
  updated_at: "2025-03-01T10:05:00Z",
  loyalty_points: 3,
};

const items = [
  { product_id: 101001, variant_id: null, product_name: "Robe", variant_name: null, sku: "R-1", price: "2250", quantity: 2, total: 4500, source: "store" },
];

describe("parsePlatformOrder", () => {
  it("reshapes an order with money as decimal strings and dates as Dates", () => {
    const parsed = parsePlatformOrder({ ...order, items });
    expect(parsed.id).toBe(9001);
    expect(parsed.storeId).toBe(101);
    expect(parsed.subtotal).toBe("4500");
    expect(parsed.shippingCost).toBe("400.00");
    expect(parsed.total).toBe("4900.5");
    expect(parsed.createdAt.toISOString()).toBe("2025-03-01T09:00:00.000Z");
    expect(parsed.wilayaName).toBe("الجزائر");
    expect(parsed.items).toEqual([
      { productId: 101001, variantId: null, productName: "Robe", variantName: null, sku: "R-1", price: "2250", quantity: 2, total: "4500", source: "store" },
    ]);
  });

  it("keeps unknown fields in extra", () => {
    expect(parsePlatformOrder(order).extra).toEqual({ loyalty_points: 3 });
  });

  it("reads a webhook's data ({ order, items, previous_status })", () => {
    const parsed = parsePlatformOrder({ order, items, previous_status: "pending" });
    expect(parsed.orderNumber).toBe(order.order_number);
    expect(parsed.items).toHaveLength(1);
  });

  it("leaves items null when the source carried none", () => {
    expect(parsePlatformOrder(order).items).toBeNull();
  });

  it("throws a protocol PlatformError naming the bad field", () => {
    expect(() => parsePlatformOrder({ ...order, total: "12,50" })).toThrow(PlatformError);
    expect(() => parsePlatformOrder({ ...order, created_at: "yesterday" })).toThrow(/created_at/);
    expect(() => parsePlatformOrder(null)).toThrow(PlatformError);
  });
});
