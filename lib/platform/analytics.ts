import "server-only";
import type { Caller } from "./caller";
import { invalidInput, parseAnswer } from "./parse";
import { analyticsSchema } from "./schemas";
import type { AnalyticsRange, AnalyticsReport } from "./types";

export type AnalyticsParams = { range?: AnalyticsRange; from?: string; to?: string };

const DAY_MS = 86_400_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The platform's rules for a custom range, checked here so a bad range costs no call from the budget. */
function checkCustomRange(from: string | undefined, to: string | undefined): void {
  if (!from || !DATE.test(from) || Number.isNaN(Date.parse(from))) throw invalidInput("from", "must be a date YYYY-MM-DD");
  if (!to || !DATE.test(to) || Number.isNaN(Date.parse(to))) throw invalidInput("to", "must be a date YYYY-MM-DD");
  const days = (Date.parse(to) - Date.parse(from)) / DAY_MS;
  if (days < 0) throw invalidInput("to", "must not be before from");
  if (days > 365) throw invalidInput("to", "must be at most 365 days after from");
}

/**
 * The analytics report (cached 120 s per store and period by the platform). Its field-level shape is not
 * documented, so it is returned as a record; revenue figures are absent unless the token is the owner's.
 */
export function analyticsOperation(call: Caller) {
  return async (params: AnalyticsParams = {}): Promise<AnalyticsReport> => {
    if (params.range === "custom") checkCustomRange(params.from, params.to);
    const response = await call("GET", "/v1/analytics", {
      query: { range: params.range, from: params.range === "custom" ? params.from : undefined, to: params.range === "custom" ? params.to : undefined },
    });
    return parseAnswer(analyticsSchema, response.data, "analytics report", response.requestId);
  };
}
