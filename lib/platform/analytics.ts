import "server-only";
import type { Caller } from "./caller";
import { parseAnalyticsReport } from "./parse-analytics";
import { invalidInput } from "./parse";
import type { AnalyticsRange, AnalyticsReport } from "./types";

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
 * The analytics report (cached 120 s per store and period by the platform), read part by part: a part the platform
 * leaves out or shapes differently is marked so rather than failing the report. Revenue figures are absent
 * unless the token is the owner's (`revenueRemoved`).
 */
export function analyticsOperation(call: Caller) {
  return async (params: AnalyticsParams = {}): Promise<AnalyticsReport> => {
    if (params.range === "custom") checkCustomRange(params.from, params.to);
    const response = await call("GET", "/v1/analytics", {
      query: { range: params.range, from: params.range === "custom" ? params.from : undefined, to: params.range === "custom" ? params.to : undefined },
    });
    return parseAnalyticsReport(response.data, response.requestId);
  };
}
