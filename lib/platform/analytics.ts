import "server-only";
import { PlatformError } from "./errors";
import { defineResource, invalidInput } from "./resource";

export type AnalyticsRange = "today" | "yesterday" | "7d" | "30d" | "this_month" | "last_month" | "this_year" | "custom";

/**
 * One part of the analytics report. The spec names the parts but not their fields, so each is read on its own:
 * `missing` when the platform sent nothing for it, `unreadable` when it sent a shape this app does not know,
 * `removed` for revenue figures the platform withholds (they are absent unless the key is the store owner's).
 */
export type ReportPart<T> = { state: "ok"; value: T } | { state: "missing" } | { state: "unreadable" } | { state: "removed" };

export type AnalyticsKpiName = "orders" | "revenue" | "averageOrderValue" | "profit" | "visitors" | "conversionRate";

export type AnalyticsKpi = {
  value: number;
  /** The previous period of the same length, when given. */
  previous: number | null;
  /** Percent against the previous period; null when the platform gives none (for example, nothing before). */
  change: number | null;
};

/** One day (or other step) of a series: `date` as the platform wrote it, usually `YYYY-MM-DD`. */
export type AnalyticsPoint = { date: string; value: number };

/** A named share (devices, traffic sources): `label` is the platform's own word, e.g. `mobile`, `facebook`. */
export type AnalyticsShare = { label: string; value: number };

/** A row of a top list: product or wilaya name as the platform wrote it (wilaya names are Arabic). */
export type AnalyticsRankRow = { name: string; count: number | null; revenue: number | null };

export type AnalyticsReport = {
  /** The period the platform computed, as it reported it (null when it did not say). */
  range: string | null;
  from: string | null;
  to: string | null;
  /** When the platform computed the figures; a cached answer (up to 120 s) repeats the first computation's time. */
  generatedAt: Date | null;
  kpis: Record<AnalyticsKpiName, ReportPart<AnalyticsKpi>>;
  /** True when the platform withheld revenue figures (the token's owner is not the store owner). */
  revenueRemoved: boolean;
  charts: {
    orders: ReportPart<AnalyticsPoint[]>;
    revenue: ReportPart<AnalyticsPoint[]>;
    visitors: ReportPart<AnalyticsPoint[]>;
    devices: ReportPart<AnalyticsShare[]>;
    trafficSources: ReportPart<AnalyticsShare[]>;
    topProducts: ReportPart<AnalyticsRankRow[]>;
    topWilayas: ReportPart<AnalyticsRankRow[]>;
  };
};

export type AnalyticsParams = { range?: AnalyticsRange; from?: string; to?: string };

export const ANALYTICS_RANGES = ["today", "yesterday", "7d", "30d", "this_month", "last_month", "this_year", "custom"] as const;
export const MAX_CUSTOM_RANGE_DAYS = 365;

const DAY_MS = 86_400_000;

/** Milliseconds of a real calendar date `YYYY-MM-DD` (not 2025-02-30, which Date.parse rolls into March), else null. */
function calendarDate(value: string | undefined): number | null {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const ms = Date.parse(`${value}T00:00:00Z`);
  return Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value ? null : ms;
}

export type CustomRangeProblem = "from_invalid" | "to_invalid" | "to_before_from" | "too_long";

/** The platform's rules for a custom range (`to` not before `from`, at most 365 days after it); null when it is good. */
export function customRangeProblem(from: string | undefined, to: string | undefined): CustomRangeProblem | null {
  const fromMs = calendarDate(from);
  if (fromMs === null) return "from_invalid";
  const toMs = calendarDate(to);
  if (toMs === null) return "to_invalid";
  if (toMs < fromMs) return "to_before_from";
  return (toMs - fromMs) / DAY_MS > MAX_CUSTOM_RANGE_DAYS ? "too_long" : null;
}

const PROBLEM_TEXT: Record<CustomRangeProblem, [field: string, message: string]> = {
  from_invalid: ["from", "must be a date YYYY-MM-DD"],
  to_invalid: ["to", "must be a date YYYY-MM-DD"],
  to_before_from: ["to", "must not be before from"],
  too_long: ["to", `must be at most ${MAX_CUSTOM_RANGE_DAYS} days after from`],
};

/** Checked here so a bad range costs no call from the budget. */
function checkCustomRange(from: string | undefined, to: string | undefined): void {
  const problem = customRangeProblem(from, to);
  if (problem) throw invalidInput(...PROBLEM_TEXT[problem]);
}

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

/**
 * The analytics report (cached 120 s per store and period by the platform), read part by part: a part the platform
 * leaves out or shapes differently is marked so rather than failing the report. Revenue figures are absent
 * unless the token is the owner's (`revenueRemoved`). `client.analytics(params)`.
 */
export const analytics = defineResource((call) => async (params: AnalyticsParams = {}): Promise<AnalyticsReport> => {
  if (params.range === "custom") checkCustomRange(params.from, params.to);
  const response = await call("GET", "/v1/analytics", {
    query: { range: params.range, from: params.range === "custom" ? params.from : undefined, to: params.range === "custom" ? params.to : undefined },
  });
  return parseAnalyticsReport(response.data, response.requestId);
});
