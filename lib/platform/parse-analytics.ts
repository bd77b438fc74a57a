import "server-only";
import { PlatformError } from "./errors";
import type { AnalyticsKpi, AnalyticsKpiName, AnalyticsPoint, AnalyticsRankRow, AnalyticsReport, AnalyticsShare, ReportPart } from "./types";

/**
 * The analytics report, read leniently. The spec lists its parts (KPIs with their change, series for orders,
 * revenue, visitors, devices, traffic sources, top products, top wilayas) but not their fields, so every part is
 * looked up under the names a report is likely to use and read in the shapes it is likely to take. A part that is
 * absent or not understood becomes `missing` or `unreadable`; it never fails the other parts.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** A number, or a numeric string ("1234.50", "12.5%"): money may come as decimal strings. */
function toNumber(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "string" && /^\s*-?\d+(\.\d+)?\s*%?\s*$/.test(value)) return Number.parseFloat(value);
  return null;
}

function firstKey(source: Json, keys: readonly string[]): unknown {
  for (const key of keys) if (source[key] !== undefined) return source[key];
  return undefined;
}

/** Where a part may sit: under `kpis`/`charts` (or their synonyms) or at the top level. */
function lookUp(report: Json, groups: readonly string[], keys: readonly string[]): unknown {
  for (const group of groups) {
    const holder = report[group];
    if (isObject(holder)) {
      const found = firstKey(holder, keys);
      if (found !== undefined) return found;
    }
  }
  return firstKey(report, keys);
}

const KPI_GROUPS = ["kpis", "kpi", "summary", "totals"] as const;
const CHART_GROUPS = ["charts", "series", "chart"] as const;

const KPI_KEYS: Record<AnalyticsKpiName, readonly string[]> = {
  orders: ["orders", "orders_count", "total_orders"],
  revenue: ["revenue", "total_revenue", "sales"],
  averageOrderValue: ["average_order_value", "avg_order_value", "aov"],
  profit: ["profit", "total_profit"],
  visitors: ["visitors", "visits", "sessions"],
  conversionRate: ["conversion_rate", "conversion"],
};
const REVENUE_KPIS: ReadonlySet<AnalyticsKpiName> = new Set(["revenue", "averageOrderValue", "profit"]);

function readKpi(raw: unknown): ReportPart<AnalyticsKpi> {
  const plain = toNumber(raw);
  if (plain !== null) return { state: "ok", value: { value: plain, previous: null, change: null } };
  if (!isObject(raw)) return { state: "unreadable" };
  const value = toNumber(firstKey(raw, ["value", "current", "total", "count", "amount"]));
  if (value === null) return { state: "unreadable" };
  const previous = toNumber(firstKey(raw, ["previous", "previous_value", "prev", "before"]));
  const change = toNumber(firstKey(raw, ["change", "change_percent", "change_pct", "delta_percent", "growth"]));
  return { state: "ok", value: { value, previous, change } };
}

const DATE_KEYS = ["date", "day", "period", "label", "x", "bucket"] as const;
const SERIES_VALUE_KEYS = ["value", "count", "total", "y", "amount"] as const;

function readSeries(raw: unknown, valueKeys: readonly string[]): ReportPart<AnalyticsPoint[]> {
  const points: AnalyticsPoint[] = [];
  if (Array.isArray(raw)) {
    for (const entry of raw) {
      if (Array.isArray(entry) && typeof entry[0] === "string" && toNumber(entry[1]) !== null) {
        points.push({ date: entry[0], value: toNumber(entry[1])! });
        continue;
      }
      if (!isObject(entry)) return { state: "unreadable" };
      const date = firstKey(entry, DATE_KEYS);
      const value = toNumber(firstKey(entry, [...SERIES_VALUE_KEYS, ...valueKeys]));
      if (typeof date !== "string" || value === null) return { state: "unreadable" };
      points.push({ date, value });
    }
    return { state: "ok", value: points };
  }
  if (isObject(raw)) {
    // `{ "2025-03-01": 4, ... }`
    for (const [date, rawValue] of Object.entries(raw)) {
      const value = toNumber(rawValue);
      if (value === null) return { state: "unreadable" };
      points.push({ date, value });
    }
    return { state: "ok", value: points.sort((a, b) => a.date.localeCompare(b.date)) };
  }
  return { state: "unreadable" };
}

const SHARE_LABEL_KEYS = ["label", "name", "key", "type"] as const;
const SHARE_VALUE_KEYS = ["value", "count", "visitors", "visits", "sessions", "total", "percentage", "share"] as const;

function readShares(raw: unknown, labelKeys: readonly string[]): ReportPart<AnalyticsShare[]> {
  if (Array.isArray(raw)) {
    const rows: AnalyticsShare[] = [];
    for (const entry of raw) {
      if (!isObject(entry)) return { state: "unreadable" };
      const label = firstKey(entry, [...labelKeys, ...SHARE_LABEL_KEYS]);
      const value = toNumber(firstKey(entry, SHARE_VALUE_KEYS));
      if (typeof label !== "string" || value === null) return { state: "unreadable" };
      rows.push({ label, value });
    }
    return { state: "ok", value: rows };
  }
  if (isObject(raw)) {
    // `{ mobile: 120, desktop: 30 }`
    const rows: AnalyticsShare[] = [];
    for (const [label, rawValue] of Object.entries(raw)) {
      const value = toNumber(rawValue);
      if (value === null) return { state: "unreadable" };
      rows.push({ label, value });
    }
    return { state: "ok", value: rows };
  }
  return { state: "unreadable" };
}

function readRanking(raw: unknown, nameKeys: readonly string[], countKeys: readonly string[]): ReportPart<AnalyticsRankRow[]> {
  if (!Array.isArray(raw)) return { state: "unreadable" };
  const rows: AnalyticsRankRow[] = [];
  for (const entry of raw) {
    if (!isObject(entry)) return { state: "unreadable" };
    const name = firstKey(entry, [...nameKeys, "name", "label", "title"]);
    const count = toNumber(firstKey(entry, [...countKeys, "count", "value"]));
    const revenue = toNumber(firstKey(entry, ["revenue", "sales", "amount"]));
    if (typeof name !== "string" || name.trim() === "" || (count === null && revenue === null)) return { state: "unreadable" };
    rows.push({ name, count, revenue });
  }
  return { state: "ok", value: rows };
}

function part<T>(raw: unknown, read: (value: unknown) => ReportPart<T>, removable = false): ReportPart<T> {
  if (raw === undefined || raw === null) return removable ? { state: "removed" } : { state: "missing" };
  return read(raw);
}

function readDate(value: unknown): string | null {
  return typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : null;
}

function readInstant(value: unknown): Date | null {
  if (typeof value !== "string" && typeof value !== "number") return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

export function parseAnalyticsReport(data: unknown, requestId: string | null = null): AnalyticsReport {
  if (!isObject(data)) {
    throw new PlatformError({
      kind: "protocol",
      status: null,
      code: "invalid_response",
      message: "The platform's analytics report was not an object.",
      requestId,
    });
  }
  const kpi = (name: AnalyticsKpiName) => part(lookUp(data, KPI_GROUPS, KPI_KEYS[name]), readKpi, REVENUE_KPIS.has(name));
  const kpis: AnalyticsReport["kpis"] = {
    orders: kpi("orders"),
    revenue: kpi("revenue"),
    averageOrderValue: kpi("averageOrderValue"),
    profit: kpi("profit"),
    visitors: kpi("visitors"),
    conversionRate: kpi("conversionRate"),
  };
  const chart = (keys: readonly string[]) => lookUp(data, CHART_GROUPS, keys);
  const revenueChart = part(chart(["revenue", "revenue_over_time", "sales"]), (raw) => readSeries(raw, ["revenue", "amount"]), true);
  const period = isObject(data.period) ? data.period : data;
  return {
    range: typeof data.range === "string" ? data.range : typeof period.range === "string" ? period.range : null,
    from: readDate(firstKey(period, ["from", "start", "start_date"])),
    to: readDate(firstKey(period, ["to", "end", "end_date"])),
    generatedAt: readInstant(firstKey(data, ["generated_at", "computed_at", "cached_at", "calculated_at"])),
    kpis,
    revenueRemoved: kpis.revenue.state === "removed",
    charts: {
      orders: part(chart(["orders", "orders_over_time"]), (raw) => readSeries(raw, ["orders"])),
      revenue: revenueChart,
      visitors: part(chart(["visitors", "visits", "sessions"]), (raw) => readSeries(raw, ["visitors", "visits"])),
      devices: part(chart(["devices", "device"]), (raw) => readShares(raw, ["device", "device_type"])),
      trafficSources: part(chart(["traffic_sources", "sources", "traffic"]), (raw) => readShares(raw, ["source", "channel", "referrer"])),
      topProducts: part(chart(["top_products", "products"]), (raw) =>
        readRanking(raw, ["product_name", "product"], ["quantity", "units", "sold", "orders"]),
      ),
      topWilayas: part(chart(["top_wilayas", "wilayas"]), (raw) => readRanking(raw, ["wilaya_name", "wilaya"], ["orders", "orders_count"])),
    },
  };
}
