import { storeHref } from "@/lib/sections";
import { ANALYTICS_RANGES, customRangeProblem, type AnalyticsParams, type AnalyticsRange, type CustomRangeProblem } from "@/lib/platform";

/**
 * `/stores/{id}?range=&from=&to=` (the platform's own names) -> the analytics call to make, or the reason not to
 * make one. Checked before any call, so a bad period costs nothing from the store's request budget.
 */

export type PeriodProblem = CustomRangeProblem | "range_invalid";

export type OverviewQuery =
  | { ok: true; range: AnalyticsRange; from: string; to: string; params: AnalyticsParams }
  | { ok: false; range: string; from: string; to: string; problem: PeriodProblem };

export const DEFAULT_RANGE: AnalyticsRange = "this_month";

function single(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value)?.trim() ?? "";
}

export function parseOverviewQuery(searchParams: Record<string, string | string[] | undefined>): OverviewQuery {
  const from = single(searchParams.from);
  const to = single(searchParams.to);
  // A bare `?from=&to=` (no range) can only mean a custom period.
  const range = single(searchParams.range) || (from || to ? "custom" : DEFAULT_RANGE);
  if (!(ANALYTICS_RANGES as readonly string[]).includes(range)) return { ok: false, range, from, to, problem: "range_invalid" };
  const known = range as AnalyticsRange;
  if (known !== "custom") return { ok: true, range: known, from: "", to: "", params: { range: known } };
  const problem = customRangeProblem(from, to);
  if (problem) return { ok: false, range, from, to, problem };
  return { ok: true, range: known, from, to, params: { range: known, from, to } };
}

/** The overview URL of a period (presets carry no dates; the default period has no query at all). */
export function overviewHref(storeId: number, range: AnalyticsRange, dates?: { from: string; to: string }): string {
  if (range === DEFAULT_RANGE) return storeHref(storeId);
  return storeHref(storeId, "overview", range === "custom" && dates ? { range, from: dates.from, to: dates.to } : { range });
}
