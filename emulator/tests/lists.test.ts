import { beforeEach, describe, expect, it } from "vitest";
import { api, resetWithInstall, startEmulatorForFile } from "./support";

const emu = startEmulatorForFile();
let token: string;
beforeEach(() => {
  token = resetWithInstall(emu, 101);
});

const read = (path: string) => api(emu, token, "GET", path);
const ORDER_FIELDS = [
  "id", "store_id", "order_number", "store_seq", "status", "payment_status", "payment_method", "delivery_type", "desk_name",
  "customer_name", "customer_phone", "customer_email", "wilaya_id", "wilaya_name", "commune", "address", "subtotal",
  "shipping_cost", "discount", "total", "promo_code", "customer_notes", "tracking_number", "delivery_company", "created_at",
  "updated_at", "items",
];

describe("orders list", () => {
  it("returns the webhook order shape with items, newest first, 20 by default, paged to the end", async () => {
    const first = await read("/v1/orders");
    expect(first.status).toBe(200);
    expect(first.json.data.items).toHaveLength(20);
    const order = first.json.data.items[0];
    expect(Object.keys(order).sort()).toEqual([...ORDER_FIELDS].sort());
    expect(order.order_number).toMatch(/^ORD-101-\d{8}-[0-9a-f]{8}$/);
    expect(Object.keys(order.items[0]).sort()).toEqual(
      ["product_id", "variant_id", "product_name", "variant_name", "sku", "price", "quantity", "total", "source"].sort(),
    );
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const page = await read(`/v1/orders?limit=15${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      seen.push(...page.json.data.items.map((item: { id: number; created_at: string }) => Date.parse(item.created_at)));
      cursor = page.json.data.next_cursor;
    } while (cursor);
    expect(seen).toHaveLength(40);
    expect([...seen].sort((a, b) => b - a)).toEqual(seen);
  });

  it("limit above 100 is lowered to 100; a non-numeric limit gives 400", async () => {
    for (let index = 0; index < 80; index += 1) emu.control.placeOrder(101);
    expect((await read("/v1/orders?limit=500")).json.data.items).toHaveLength(100);
    expect((await read("/v1/orders?limit=ten")).status).toBe(400);
  });

  it("filters by since (created at or after), status and customer_phone", async () => {
    const placed = emu.control.placeOrder(101, { customer_phone: "0555123456" });
    const since = await read(`/v1/orders?since=${encodeURIComponent(placed.created_at)}`);
    expect(since.json.data.items.map((item: { id: number }) => item.id)).toEqual([placed.id]);
    const shipped = await read("/v1/orders?status=shipped&limit=100");
    expect(shipped.json.data.items.length).toBeGreaterThan(0);
    expect(shipped.json.data.items.every((item: { status: string }) => item.status === "shipped")).toBe(true);
    const byPhone = await read("/v1/orders?customer_phone=0555123456");
    expect(byPhone.json.data.items.map((item: { id: number }) => item.id)).toEqual([placed.id]);
    expect((await read("/v1/orders?since=yesterday")).status).toBe(400);
    expect((await read("/v1/orders?status=lost")).status).toBe(400);
  });

  it("fixtures hold orders in every status", async () => {
    const statuses = new Set(emu.ctx.state.orders.filter((order) => order.store_id === 101).map((order) => order.status));
    expect([...statuses].sort()).toEqual(["cancelled", "confirmed", "delivered", "pending", "processing", "returned", "shipped"]);
  });

  it("lists only the token's store", async () => {
    const other = emu.control.placeOrder(102);
    const page = await read("/v1/orders?limit=100");
    expect(page.json.data.items.every((item: { store_id: number }) => item.store_id === 101)).toBe(true);
    expect(page.json.data.items.map((item: { id: number }) => item.id)).not.toContain(other.id);
  });
});

describe("customers list", () => {
  it("lists the store's customers newest first and filters by phone", async () => {
    const page = await read("/v1/customers?limit=5");
    expect(page.status).toBe(200);
    expect(page.json.data.items).toHaveLength(5);
    expect(page.json.data.has_more).toBe(true);
    const phone = page.json.data.items[2].phone;
    const filtered = await read(`/v1/customers?phone=${phone}`);
    expect(filtered.json.data.items.map((item: { phone: string }) => item.phone)).toEqual([phone]);
    const times = page.json.data.items.map((item: { created_at: string }) => Date.parse(item.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });
});
