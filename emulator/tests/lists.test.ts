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

describe("analytics", () => {
  it.each(["today", "yesterday", "7d", "30d", "this_month", "last_month", "this_year"])("range %s answers a report", async (range) => {
    const result = await read(`/v1/analytics?range=${range}`);
    expect(result.status).toBe(200);
    expect(result.json.data.range).toBe(range);
    expect(result.json.data.kpis.orders).toHaveProperty("change");
    expect(Object.keys(result.json.data.charts).sort()).toEqual(
      ["devices", "orders", "top_products", "top_wilayas", "traffic_sources", "visitors"].sort(),
    );
  });

  it("defaults to this_month and removes revenue figures for app keys", async () => {
    const result = await read("/v1/analytics");
    expect(result.json.data.range).toBe("this_month");
    expect(result.json.data.kpis).not.toHaveProperty("revenue");
    expect(result.json.data.kpis).not.toHaveProperty("profit");
    expect(result.json.data.kpis).not.toHaveProperty("average_order_value");
    expect(result.json.data.charts).not.toHaveProperty("revenue");
  });

  it("counts the orders of a custom period and compares them with the previous one", async () => {
    const day = new Date(emu.ctx.clock.nowMs()).toISOString().slice(0, 10);
    const before = (await read(`/v1/analytics?range=custom&from=${day}&to=${day}`)).json.data.kpis.orders.value;
    emu.control.placeOrder(101);
    emu.control.advanceClock(121);
    const after = await read(`/v1/analytics?range=custom&from=${day}&to=${day}`);
    expect(after.json.data.kpis.orders.value).toBe(before + 1);
  });

  it("caches a report for 120 seconds per store and period", async () => {
    const first = await read("/v1/analytics?range=today");
    emu.control.placeOrder(101);
    emu.control.advanceClock(60);
    const cached = await read("/v1/analytics?range=today");
    expect(cached.json.data.generated_at).toBe(first.json.data.generated_at);
    expect(cached.json.data.kpis.orders.value).toBe(first.json.data.kpis.orders.value);
    emu.control.advanceClock(61);
    const fresh = await read("/v1/analytics?range=today");
    expect(fresh.json.data.generated_at).not.toBe(first.json.data.generated_at);
  });

  it.each([
    ["unknown range", "range=week"],
    ["custom without dates", "range=custom"],
    ["custom with a bad date", "range=custom&from=2025-02-30&to=2025-03-01"],
    ["to before from", "range=custom&from=2025-03-02&to=2025-03-01"],
    ["more than 365 days", "range=custom&from=2024-01-01&to=2025-01-01"],
  ])("%s gives 400", async (_name, query) => {
    const result = await read(`/v1/analytics?${query}`);
    expect(result.status).toBe(400);
    expect(result.json.error.code).toBe("bad_request");
  });

  it("exactly 365 days is accepted", async () => {
    expect((await read("/v1/analytics?range=custom&from=2025-01-01&to=2026-01-01")).status).toBe(200);
  });
});
