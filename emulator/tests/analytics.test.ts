import { beforeEach, describe, expect, it } from "vitest";
import type { Order } from "../src/model";
import { api, resetWithInstall, startEmulatorForFile } from "./support";

/**
 * GET /v1/analytics: the report is computed from the emulator's own orders, so every figure here is recomputed
 * from `control.storeOrders()` independently and compared.
 */

const emu = startEmulatorForFile();
let token: string;
beforeEach(() => {
  token = resetWithInstall(emu, 101);
});

const read = (path: string) => api(emu, token, "GET", path);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Algeria's calendar date of an instant (UTC+1 all year), computed with Intl rather than the emulator's offset. */
const algiersDate = (ms: number) => new Intl.DateTimeFormat("en-CA", { timeZone: "Africa/Algiers" }).format(ms);

function expectedFigures(orders: Order[], from: string, to: string) {
  const inPeriod = orders.filter((order) => {
    const day = algiersDate(Date.parse(order.created_at));
    return day >= from && day <= to;
  });
  const paying = inPeriod.filter((order) => order.status !== "cancelled" && order.status !== "returned");
  const revenue = Math.round(paying.reduce((sum, order) => sum + order.total, 0) * 100) / 100;
  const perDay = new Map<string, number>();
  for (const order of inPeriod) {
    const day = algiersDate(Date.parse(order.created_at));
    perDay.set(day, (perDay.get(day) ?? 0) + 1);
  }
  const wilayas = new Map<string, number>();
  for (const order of inPeriod) wilayas.set(order.wilaya_name, (wilayas.get(order.wilaya_name) ?? 0) + 1);
  return { orders: inPeriod.length, revenue, perDay, wilayas };
}

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

  it("defaults to this_month and removes revenue figures unless the store lets app keys see them", async () => {
    const result = await read("/v1/analytics");
    expect(result.json.data.range).toBe("this_month");
    expect(result.json.data.kpis).not.toHaveProperty("revenue");
    expect(result.json.data.kpis).not.toHaveProperty("profit");
    expect(result.json.data.kpis).not.toHaveProperty("average_order_value");
    expect(result.json.data.charts).not.toHaveProperty("revenue");

    emu.control.setStoreSettings(101, { analyticsRevenueVisible: true });
    const shown = await read("/v1/analytics");
    expect(shown.json.data.kpis.revenue).toHaveProperty("value");
    expect(shown.json.data.kpis.average_order_value).toHaveProperty("value");
    expect(shown.json.data.charts.revenue).toHaveLength(shown.json.data.charts.orders.length);
  });

  it("computes orders, revenue, days and wilayas of a 30-day custom period from the store's orders", async () => {
    emu.control.setStoreSettings(101, { analyticsRevenueVisible: true });
    const now = emu.ctx.clock.nowMs();
    const to = algiersDate(now);
    const from = algiersDate(now - 29 * DAY);
    const result = await read(`/v1/analytics?range=custom&from=${from}&to=${to}`);
    expect(result.status).toBe(200);
    const report = result.json.data;
    const expected = expectedFigures(emu.control.storeOrders(101), from, to);
    expect(expected.orders).toBeGreaterThan(5);

    expect(report.from).toBe(from);
    expect(report.to).toBe(to);
    expect(report.kpis.orders.value).toBe(expected.orders);
    expect(report.kpis.revenue.value).toBe(expected.revenue);
    const series = report.charts.orders as { date: string; value: number }[];
    expect(series).toHaveLength(30);
    expect(series[0]!.date).toBe(from);
    expect(series.at(-1)!.date).toBe(to);
    for (const point of series) expect(point.value).toBe(expected.perDay.get(point.date) ?? 0);
    const revenueSum = (report.charts.revenue as { value: number }[]).reduce((sum, point) => sum + point.value, 0);
    expect(Math.round(revenueSum * 100) / 100).toBe(expected.revenue);
    for (const row of report.charts.top_wilayas as { wilaya_name: string; orders: number }[]) {
      expect(row.orders).toBe(expected.wilayas.get(row.wilaya_name));
    }
    const topCount = Math.max(...expected.wilayas.values());
    expect(report.charts.top_wilayas[0].orders).toBe(topCount);
  });

  it("compares a period with the previous one of the same length", async () => {
    const now = emu.ctx.clock.nowMs();
    const to = algiersDate(now - 7 * DAY);
    const from = algiersDate(now - 13 * DAY);
    const previousTo = algiersDate(now - 14 * DAY);
    const previousFrom = algiersDate(now - 20 * DAY);
    const orders = emu.control.storeOrders(101);
    const current = expectedFigures(orders, from, to).orders;
    const previous = expectedFigures(orders, previousFrom, previousTo).orders;
    const report = (await read(`/v1/analytics?range=custom&from=${from}&to=${to}`)).json.data;
    expect(report.kpis.orders.value).toBe(current);
    expect(report.kpis.orders.previous).toBe(previous);
    expect(report.kpis.orders.change).toBe(previous === 0 ? null : Math.round(((current - previous) / previous) * 1000) / 10);
  });

  it("counts an order placed at 23:30 UTC on the next Algerian day, as the orders list dates it", async () => {
    const now = emu.ctx.clock.nowMs();
    const nextLateEvening = Math.ceil((now - 23.5 * HOUR) / DAY) * DAY + 23.5 * HOUR;
    emu.control.advanceClock(Math.ceil((nextLateEvening - now) / 1000) + 1);
    const order = emu.control.placeOrder(101);
    const utcDay = order.created_at.slice(0, 10);
    const localDay = algiersDate(Date.parse(order.created_at));
    expect(localDay).not.toBe(utcDay);
    const onLocalDay = (await read(`/v1/analytics?range=custom&from=${localDay}&to=${localDay}`)).json.data;
    expect(onLocalDay.charts.orders).toEqual([{ date: localDay, value: expectedFigures(emu.control.storeOrders(101), localDay, localDay).orders }]);
    expect(onLocalDay.kpis.orders.value).toBeGreaterThanOrEqual(1);
    const today = (await read("/v1/analytics?range=today")).json.data;
    expect(today.from).toBe(localDay);
  });

  it("devices and traffic sources add up to the visitors", async () => {
    const report = (await read("/v1/analytics?range=30d")).json.data;
    const sum = (rows: { value: number }[]) => rows.reduce((total, row) => total + row.value, 0);
    expect(sum(report.charts.devices)).toBe(report.kpis.visitors.value);
    expect(sum(report.charts.traffic_sources)).toBe(report.kpis.visitors.value);
  });

  it("counts a new order once the cached report has expired", async () => {
    const day = algiersDate(emu.ctx.clock.nowMs());
    const query = `/v1/analytics?range=custom&from=${day}&to=${day}`;
    const before = (await read(query)).json.data.kpis.orders.value;
    expect(before).toBe(expectedFigures(emu.control.storeOrders(101), day, day).orders);
    const order = emu.control.placeOrder(101);
    emu.control.advanceClock(121);
    const after = (await read(query)).json.data.kpis.orders.value;
    expect(after).toBe(expectedFigures(emu.control.storeOrders(101), day, day).orders);
    expect(after).toBe(algiersDate(Date.parse(order.created_at)) === day ? before + 1 : before);
  });

  it("caches a report for 120 seconds per store and period", async () => {
    const first = await read("/v1/analytics?range=this_year");
    emu.control.placeOrder(101);
    emu.control.advanceClock(60);
    const cached = await read("/v1/analytics?range=this_year");
    expect(cached.json.data.generated_at).toBe(first.json.data.generated_at);
    expect(cached.json.data.kpis.orders.value).toBe(first.json.data.kpis.orders.value);
    emu.control.advanceClock(61);
    const fresh = await read("/v1/analytics?range=this_year");
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

  it("a monthly quota set on the store gives 402 quota_exceeded once spent", async () => {
    emu.control.setStoreSettings(101, { monthlyQuota: 0 });
    const result = await read("/v1/analytics");
    expect(result.status).toBe(402);
    expect(result.json.error.code).toBe("quota_exceeded");
  });
});
