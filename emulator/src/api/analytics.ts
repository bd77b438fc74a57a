import type { Order, Store } from "../model";
import { runtime } from "../runtime";
import { apiError, apiOk } from "./envelope";
import type { ApiCall, Operation } from "./types";

export const RANGES = ["today", "yesterday", "7d", "30d", "this_month", "last_month", "this_year", "custom"] as const;
export const ANALYTICS_CACHE_SECONDS = 120;
const DAY = 86_400_000;
/**
 * Days are the store's days: Algeria keeps UTC+1 all year (no daylight saving since 1981), so an order placed at
 * 23:30 UTC counts on the next day, the same day the app's orders list shows it.
 */
export const STORE_UTC_OFFSET_MS = 3_600_000;
/** Orders that brought no money: left out of revenue (they still count as orders). */
const NO_REVENUE_STATUSES = new Set(["cancelled", "returned"]);

/** [start, end) in milliseconds since the epoch, both on a store-day boundary. */
type Period = { start: number; end: number };

function startOfStoreDay(ms: number): number {
  return Math.floor((ms + STORE_UTC_OFFSET_MS) / DAY) * DAY - STORE_UTC_OFFSET_MS;
}

/** The store-local calendar date of an instant, `YYYY-MM-DD`. */
export function storeDate(ms: number): string {
  return new Date(ms + STORE_UTC_OFFSET_MS).toISOString().slice(0, 10);
}

/** The instant a store-local date starts, or null for anything that is not a real `YYYY-MM-DD` date. */
function parseDate(value: string | null): number | null {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const utcMidnight = Date.parse(`${value}T00:00:00Z`);
  if (Number.isNaN(utcMidnight) || new Date(utcMidnight).toISOString().slice(0, 10) !== value) return null;
  return utcMidnight - STORE_UTC_OFFSET_MS;
}

function periodFor(range: (typeof RANGES)[number], now: number, from: number, to: number): Period {
  const today = startOfStoreDay(now);
  const [year, month] = storeDate(now).split("-").map(Number) as [number, number];
  const monthStart = (y: number, m: number) => Date.UTC(y, m - 1, 1) - STORE_UTC_OFFSET_MS;
  switch (range) {
    case "today":
      return { start: today, end: today + DAY };
    case "yesterday":
      return { start: today - DAY, end: today };
    case "7d":
      return { start: today - 6 * DAY, end: today + DAY };
    case "30d":
      return { start: today - 29 * DAY, end: today + DAY };
    case "this_month":
      return { start: monthStart(year, month), end: today + DAY };
    case "last_month":
      return { start: monthStart(year, month - 1), end: monthStart(year, month) };
    case "this_year":
      return { start: monthStart(year, 1), end: today + DAY };
    case "custom":
      return { start: from, end: to + DAY };
  }
}

/** Visitors are not tracked by the emulator: a stable made-up figure per store and day. */
function visitorsOn(storeId: number, day: number): number {
  const seed = Math.sin(storeId * 12.9898 + Math.round(day / DAY) * 78.233) * 43758.5453;
  return 40 + Math.floor((seed - Math.floor(seed)) * 260);
}

const round2 = (value: number) => Math.round(value * 100) / 100;

function kpi(value: number, previous: number) {
  return { value, previous, change: previous === 0 ? null : Math.round(((value - previous) / previous) * 1000) / 10 };
}

/** Sum of order totals, without cancelled and returned orders. */
function revenueOf(orders: Order[]): number {
  return round2(orders.reduce((sum, order) => (NO_REVENUE_STATUSES.has(order.status) ? sum : sum + order.total), 0));
}

function averageOrderValue(orders: Order[]): number {
  const paying = orders.filter((order) => !NO_REVENUE_STATUSES.has(order.status)).length;
  return paying === 0 ? 0 : round2(revenueOf(orders) / paying);
}

/** Splits a total into named shares whose rounded parts add up to the total exactly. */
function shares<K extends string>(total: number, key: K, parts: [string, number][]) {
  let left = total;
  return parts.map(([name, share], index) => {
    const value = index === parts.length - 1 ? left : Math.round(total * share);
    left -= value;
    return { [key]: name, value } as Record<K, string> & { value: number };
  });
}

/**
 * The report, computed from the emulator's own orders (created_at in the period, any status), so its order
 * counts, revenue, products and wilayas agree with the orders the app lists.
 */
function buildReport(call: ApiCall, range: string, period: Period) {
  const store: Store = call.store;
  const storeOrders = call.ctx.state.orders.filter((order) => order.store_id === store.id);
  const ordersIn = (p: Period) =>
    storeOrders.filter((order) => {
      const at = Date.parse(order.created_at);
      return at >= p.start && at < p.end;
    });
  const length = period.end - period.start;
  const previous: Period = { start: period.start - length, end: period.start };
  const current = ordersIn(period);
  const before = ordersIn(previous);
  const days: number[] = [];
  for (let day = period.start; day < period.end; day += DAY) days.push(day);
  const visitors = (p: Period) => {
    let total = 0;
    for (let day = p.start; day < p.end; day += DAY) total += visitorsOn(store.id, day);
    return total;
  };
  const currentVisitors = visitors(period);
  const previousVisitors = visitors(previous);
  const rate = (orders: number, visits: number) => (visits === 0 ? 0 : Math.round((orders / visits) * 10000) / 100);
  const ordersOnDay = (day: number) => current.filter((order) => startOfStoreDay(Date.parse(order.created_at)) === day);

  const productTotals = new Map<number, { product_id: number; product_name: string; quantity: number }>();
  const wilayaTotals = new Map<number, { wilaya_id: number; wilaya_name: string; orders: number }>();
  for (const order of current) {
    for (const item of order.items) {
      const entry = productTotals.get(item.product_id) ?? { product_id: item.product_id, product_name: item.product_name, quantity: 0 };
      entry.quantity += item.quantity;
      productTotals.set(item.product_id, entry);
    }
    const wilaya = wilayaTotals.get(order.wilaya_id) ?? { wilaya_id: order.wilaya_id, wilaya_name: order.wilaya_name, orders: 0 };
    wilaya.orders += 1;
    wilayaTotals.set(order.wilaya_id, wilaya);
  }
  // Ties are broken by id so the same orders always give the same table.
  const topProducts = [...productTotals.values()].sort((a, b) => b.quantity - a.quantity || a.product_id - b.product_id).slice(0, 5);
  const topWilayas = [...wilayaTotals.values()].sort((a, b) => b.orders - a.orders || a.wilaya_id - b.wilaya_id).slice(0, 5);

  // The spec removes revenue figures unless the key belongs to the store owner; whose key an install token counts
  // as is not shown, so a store setting decides (removed by default).
  const withRevenue = store.analyticsRevenueVisible === true;
  return {
    range,
    from: storeDate(period.start),
    to: storeDate(period.end - DAY),
    generated_at: call.ctx.clock.now().toISOString(),
    currency: "DZD",
    kpis: {
      orders: kpi(current.length, before.length),
      ...(withRevenue
        ? { revenue: kpi(revenueOf(current), revenueOf(before)), average_order_value: kpi(averageOrderValue(current), averageOrderValue(before)) }
        : {}),
      visitors: kpi(currentVisitors, previousVisitors),
      conversion_rate: kpi(rate(current.length, currentVisitors), rate(before.length, previousVisitors)),
    },
    charts: {
      orders: days.map((day) => ({ date: storeDate(day), value: ordersOnDay(day).length })),
      ...(withRevenue ? { revenue: days.map((day) => ({ date: storeDate(day), value: revenueOf(ordersOnDay(day)) })) } : {}),
      visitors: days.map((day) => ({ date: storeDate(day), value: visitorsOn(store.id, day) })),
      devices: shares(currentVisitors, "device", [["mobile", 0.78], ["desktop", 0.18], ["tablet", 0.04]]),
      traffic_sources: shares(currentVisitors, "source", [["facebook", 0.46], ["instagram", 0.27], ["tiktok", 0.12], ["direct", 0.15]]),
      top_products: topProducts,
      top_wilayas: topWilayas,
    },
  };
}

function analytics(call: ApiCall) {
  const query = call.request.url.searchParams;
  const range = (query.get("range") || "this_month") as (typeof RANGES)[number];
  if (!RANGES.includes(range)) return apiError(400, "bad_request", `range must be one of ${RANGES.join(", ")}`, call.requestId);
  let from = 0;
  let to = 0;
  if (range === "custom") {
    const parsedFrom = parseDate(query.get("from"));
    const parsedTo = parseDate(query.get("to"));
    if (parsedFrom === null || parsedTo === null) {
      return apiError(400, "bad_request", "custom range needs from and to as YYYY-MM-DD", call.requestId);
    }
    if (parsedTo < parsedFrom) return apiError(400, "bad_request", "to must not be before from", call.requestId);
    if (parsedTo - parsedFrom > 365 * DAY) return apiError(400, "bad_request", "to must be at most 365 days after from", call.requestId);
    from = parsedFrom;
    to = parsedTo;
  }
  const period = periodFor(range, call.ctx.clock.nowMs(), from, to);
  const cacheKey = `${call.store.id}:${range}:${period.start}:${period.end}`;
  const cache = runtime(call.ctx).analyticsCache;
  const cached = cache.get(cacheKey);
  const now = call.ctx.clock.nowMs();
  if (cached && now - cached.storedAt < ANALYTICS_CACHE_SECONDS * 1000) return apiOk(200, cached.data, call.requestId);
  const report = buildReport(call, range, period);
  cache.set(cacheKey, { storedAt: now, data: report });
  return apiOk(200, report, call.requestId);
}

export const analyticsOperations: Operation[] = [{ method: "GET", path: "/v1/analytics", scope: "analytics:read", handler: analytics }];
