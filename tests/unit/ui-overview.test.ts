import { describe, expect, it } from "vitest";
import { formatsFor } from "@/i18n/format";
import type { AnalyticsKpiName, AnalyticsRange } from "@/lib/platform";
import { overviewHref, parseOverviewQuery, type PeriodProblem } from "@/lib/overview/query";
import { CATALOGUES } from "../helpers/i18n";

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

describe("the overview's formats", () => {
  it("formats calendar dates without moving them across a time zone, money in dinars, percents", () => {
    const format = formatsFor("en", "Africa/Algiers");
    expect(format.date("2026-03-01")).toBe("Mar 1, 2026");
    expect(format.money(84500.5)).toMatch(/84,500\.50/);
    expect(format.money(84500.5)).toMatch(/DZD/);
    expect(format.percent(12.5)).toBe("12.5%");
    expect(format.instant(new Date("2026-03-01T23:30:00Z"))).toBe("Mar 2, 2026, 00:30:00 (GMT+1)");
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
