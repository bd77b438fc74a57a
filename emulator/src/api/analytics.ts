import { runtime } from "../runtime";
import { apiError, apiOk } from "./envelope";
import type { ApiCall, Operation } from "./types";

export const RANGES = ["today", "yesterday", "7d", "30d", "this_month", "last_month", "this_year", "custom"] as const;
export const ANALYTICS_CACHE_SECONDS = 120;
const DAY = 86_400_000;

/** Periods are whole UTC days: [start, end) in milliseconds. */
type Period = { start: number; end: number };

function startOfDay(ms: number): number {
  return Math.floor(ms / DAY) * DAY;
}

function parseDate(value: string | null): number | null {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const ms = Date.parse(`${value}T00:00:00Z`);
  return Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value ? null : ms;
}

function periodFor(range: (typeof RANGES)[number], now: number, from: number, to: number): Period {
  const today = startOfDay(now);
  const date = new Date(today);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
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
      return { start: Date.UTC(year, month, 1), end: today + DAY };
    case "last_month":
      return { start: Date.UTC(year, month - 1, 1), end: Date.UTC(year, month, 1) };
    case "this_year":
      return { start: Date.UTC(year, 0, 1), end: today + DAY };
    case "custom":
      return { start: from, end: to + DAY };
  }
}

/** Visitors are not tracked by the emulator: a stable made-up figure per store and day. */
function visitorsOn(storeId: number, day: number): number {
  const seed = Math.sin(storeId * 12.9898 + (day / DAY) * 78.233) * 43758.5453;
  return 40 + Math.floor((seed - Math.floor(seed)) * 260);
}

function kpi(value: number, previous: number) {
  return { value, previous, change: previous === 0 ? null : Math.round(((value - previous) / previous) * 1000) / 10 };
}

function buildReport(call: ApiCall, range: string, period: Period) {
  const storeId = call.store.id;
  const ordersIn = (p: Period) =>
    call.ctx.state.orders.filter((order) => {
      const at = Date.parse(order.created_at);
      return order.store_id === storeId && at >= p.start && at < p.end;
    });
  const length = period.end - period.start;
  const previous: Period = { start: period.start - length, end: period.start };
  const current = ordersIn(period);
  const days: number[] = [];
  for (let day = period.start; day < period.end; day += DAY) days.push(day);
  const visitors = (p: Period) => {
    let total = 0;
    for (let day = p.start; day < p.end; day += DAY) total += visitorsOn(storeId, day);
    return total;
  };
  const currentVisitors = visitors(period);
  const previousOrders = ordersIn(previous).length;
  const previousVisitors = visitors(previous);
  const rate = (orders: number, visits: number) => (visits === 0 ? 0 : Math.round((orders / visits) * 10000) / 100);

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
  const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return {
    range,
    from: iso(period.start),
    to: iso(period.end - DAY),
    generated_at: call.ctx.clock.now().toISOString(),
    // Revenue, profit and average order value are removed: an install token never belongs to the store owner.
    kpis: {
      orders: kpi(current.length, previousOrders),
      visitors: kpi(currentVisitors, previousVisitors),
      conversion_rate: kpi(rate(current.length, currentVisitors), rate(previousOrders, previousVisitors)),
    },
    charts: {
      orders: days.map((day) => ({ date: iso(day), value: current.filter((order) => startOfDay(Date.parse(order.created_at)) === day).length })),
      visitors: days.map((day) => ({ date: iso(day), value: visitorsOn(storeId, day) })),
      devices: [
        { device: "mobile", value: Math.round(currentVisitors * 0.78) },
        { device: "desktop", value: Math.round(currentVisitors * 0.18) },
        { device: "tablet", value: currentVisitors - Math.round(currentVisitors * 0.78) - Math.round(currentVisitors * 0.18) },
      ],
      traffic_sources: [
        { source: "facebook", value: Math.round(currentVisitors * 0.46) },
        { source: "instagram", value: Math.round(currentVisitors * 0.27) },
        { source: "tiktok", value: Math.round(currentVisitors * 0.12) },
        { source: "direct", value: currentVisitors - Math.round(currentVisitors * 0.46) - Math.round(currentVisitors * 0.27) - Math.round(currentVisitors * 0.12) },
      ],
      top_products: [...productTotals.values()].sort((a, b) => b.quantity - a.quantity).slice(0, 5),
      top_wilayas: [...wilayaTotals.values()].sort((a, b) => b.orders - a.orders).slice(0, 5),
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
