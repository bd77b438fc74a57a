import { describe, expect, it } from "vitest";
import { PlatformError, type AnalyticsKpiName, type AnalyticsRange } from "@/lib/platform";
import { describeOverviewError as describeWith } from "@/lib/ui/overview-errors";
import { overviewFormat } from "@/lib/ui/overview-format";
import { overviewHref, parseOverviewQuery, type PeriodProblem } from "@/lib/overview/query";
import { CATALOGUES, translator } from "../helpers/i18n";

/** The refusals in English, from the real catalogue. */
const describeOverviewError = (error: PlatformError) => describeWith(error, translator("en"));

describe("parseOverviewQuery", () => {
  it("defaults to this month, keeps presets and ignores dates on them", () => {
    expect(parseOverviewQuery({})).toMatchObject({ ok: true, range: "this_month", params: { range: "this_month" } });
    expect(parseOverviewQuery({ range: "7d", from: "2026-01-01", to: "2026-01-02" })).toEqual({
      ok: true,
      range: "7d",
      from: "",
      to: "",
      params: { range: "7d" },
    });
  });

  it("a custom range within 365 days becomes the call's parameters; dates alone mean custom", () => {
    expect(parseOverviewQuery({ range: "custom", from: "2025-01-01", to: "2026-01-01" })).toMatchObject({
      ok: true,
      params: { range: "custom", from: "2025-01-01", to: "2026-01-01" },
    });
    expect(parseOverviewQuery({ from: "2026-03-01", to: "2026-03-01" })).toMatchObject({ ok: true, range: "custom" });
  });

  it.each([
    [{ range: "week" }, "range_invalid"],
    [{ range: "custom" }, "from_invalid"],
    [{ range: "custom", from: "2026-02-30", to: "2026-03-01" }, "from_invalid"],
    [{ range: "custom", from: "2026-03-01", to: "01/03/2026" }, "to_invalid"],
    [{ range: "custom", from: "2026-03-02", to: "2026-03-01" }, "to_before_from"],
    [{ range: "custom", from: "2024-01-01", to: "2025-01-01" }, "too_long"],
  ])("%j is refused before any call: %s", (query, problem) => {
    expect(parseOverviewQuery(query)).toMatchObject({ ok: false, problem });
  });

  it("links: the default period has no query; custom carries its dates", () => {
    expect(overviewHref(101, "this_month")).toBe("/stores/101");
    expect(overviewHref(101, "30d")).toBe("/stores/101?range=30d");
    expect(overviewHref(101, "custom", { from: "2026-03-01", to: "2026-03-31" })).toBe("/stores/101?range=custom&from=2026-03-01&to=2026-03-31");
  });
});

describe("describeOverviewError", () => {
  const api = (status: number, code: string, message = "refused", retryAfter?: number) =>
    new PlatformError({ kind: "api", status, code, message, requestId: "req-9", retryAfter });

  it("402 says the quota or wallet is spent and that retrying will not help", () => {
    const quota = describeOverviewError(api(402, "quota_exceeded"));
    expect(quota.message).toMatch(/monthly request quota/);
    expect(quota.message).toMatch(/Retrying will not help/);
    expect(quota.retry).toBe(false);
    expect(describeOverviewError(api(402, "no_credit")).message).toMatch(/messaging wallet is empty/);
  });

  it("403 names the cause: missing scope (install again), suspension, plan, approval", () => {
    const scope = describeOverviewError(api(403, "forbidden", "Missing scope: analytics:read"));
    expect(scope).toMatchObject({ reinstall: true, retry: false });
    expect(scope.message).toMatch(/permission to read this store's analytics/);
    expect(describeOverviewError(api(403, "app_suspended")).message).toMatch(/suspended/);
    expect(describeOverviewError(api(403, "app_plan_required")).message).toMatch(/Upgrade the store's plan/);
    expect(describeOverviewError(api(403, "app_not_approved")).message).toMatch(/approval/);
  });

  it("429 says how long to wait, from retry_after, and offers to try again", () => {
    const limited = describeOverviewError(api(429, "rate_limited", "slow down", 17));
    expect(limited).toMatchObject({ retry: true, requestId: "req-9" });
    expect(limited.message).toMatch(/Wait 17 seconds, then try again\./);
    expect(describeOverviewError(api(429, "too_many_concurrent", "busy", 5)).message).toMatch(/busy.*Wait 5 seconds/);
    expect(describeOverviewError(api(429, "rate_limited", "x", 300)).message).toMatch(/about 5 minutes/);
  });

  it("speaks the merchant's language, with the plural the number needs", () => {
    const limited = api(429, "rate_limited", "slow down", 1);
    expect(describeWith(limited, translator("fr")).message).toMatch(/Patientez 1 seconde, puis réessayez\./);
    expect(describeWith(api(429, "rate_limited", "x", 300), translator("fr")).message).toMatch(/environ 5 minutes/);
    expect(describeWith(api(429, "rate_limited", "x", 2), translator("ar")).message).toMatch(/انتظر ثانيتين/);
    expect(describeWith(api(402, "quota_exceeded"), translator("ar")).message).toMatch(/الحصة/);
  });

  it("never shows the platform's raw message", () => {
    for (const [status, code] of [[400, "bad_request"], [500, "server_error"], [401, "unauthorized"]] as const) {
      expect(describeOverviewError(api(status, code, "internal detail svcpk_live_abc")).message).not.toMatch(/internal detail|svcpk/);
    }
  });
});

describe("overviewFormat", () => {
  it("formats calendar dates without moving them across a time zone, money in dinars, percents", () => {
    const format = overviewFormat("en");
    expect(format.date("2026-03-01")).toBe("Mar 1, 2026");
    expect(format.money(84500.5)).toMatch(/84,500\.50/);
    expect(format.money(84500.5)).toMatch(/DZD/);
    expect(format.percent(12.5)).toBe("12.5%");
    expect(format.instant(new Date("2026-03-01T23:30:00Z"))).toMatch(/Mar 2, 2026.*00:30:00|Mar 2, 2026.*12:30:00/);
    expect(format.date("not a date")).toBe("not a date");
  });
});

describe("overview key families", () => {
  // The page builds these keys from values (`Overview.period.ranges.${preset}`, …): every member exists in every locale.
  const families: Record<string, readonly string[]> = {
    "period.ranges": ["today", "yesterday", "7d", "30d", "this_month", "last_month", "this_year"] satisfies Exclude<AnalyticsRange, "custom">[],
    "period.problems": ["range_invalid", "from_invalid", "to_invalid", "to_before_from", "too_long"] satisfies PeriodProblem[],
    "kpis.names": ["orders", "revenue", "averageOrderValue", "profit", "visitors", "conversionRate"] satisfies AnalyticsKpiName[],
    "tables.deviceNames": ["mobile", "desktop", "tablet"],
    "tables.sourceNames": ["facebook", "instagram", "tiktok", "google", "direct", "other"],
  };
  it.each(["ar", "fr", "en"] as const)("%s has every member", (locale) => {
    for (const [family, members] of Object.entries(families)) {
      const node = family.split(".").reduce<unknown>((at, key) => (at as Record<string, unknown>)[key], CATALOGUES[locale].Overview);
      expect(Object.keys(node as object).sort(), family).toEqual([...members].sort());
    }
  });
});
