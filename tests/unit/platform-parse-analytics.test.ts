import { describe, expect, it } from "vitest";
import { PlatformError } from "@/lib/platform/errors";
import { parseAnalyticsReport } from "@/lib/platform/analytics";

/** The emulator's documented shape (emulator/README.md), with revenue kept. */
const emulatorReport = {
  range: "custom",
  from: "2026-03-01",
  to: "2026-03-02",
  generated_at: "2026-03-02T10:15:00.000Z",
  kpis: {
    orders: { value: 12, previous: 8, change: 50 },
    revenue: { value: 84500.5, previous: 60000, change: 40.8 },
    average_order_value: { value: 7041.71, previous: 7500, change: -6.1 },
    visitors: { value: 400, previous: 380, change: 5.3 },
    conversion_rate: { value: 3, previous: 2.11, change: 42.2 },
  },
  charts: {
    orders: [
      { date: "2026-03-01", value: 5 },
      { date: "2026-03-02", value: 7 },
    ],
    revenue: [
      { date: "2026-03-01", value: 40000 },
      { date: "2026-03-02", value: 44500.5 },
    ],
    visitors: [
      { date: "2026-03-01", value: 200 },
      { date: "2026-03-02", value: 200 },
    ],
    devices: [
      { device: "mobile", value: 312 },
      { device: "desktop", value: 72 },
    ],
    traffic_sources: [{ source: "facebook", value: 184 }],
    top_products: [{ product_id: 1, product_name: "Robe kabyle", quantity: 9 }],
    top_wilayas: [{ wilaya_id: 16, wilaya_name: "الجزائر", orders: 4 }],
  },
};

describe("parseAnalyticsReport", () => {
  it("reads every part of the emulator's shape into the app's types", () => {
    const report = parseAnalyticsReport(emulatorReport);
    expect(report).toMatchObject({ range: "custom", from: "2026-03-01", to: "2026-03-02", revenueRemoved: false });
    expect(report.generatedAt?.toISOString()).toBe("2026-03-02T10:15:00.000Z");
    expect(report.kpis.orders).toEqual({ state: "ok", value: { value: 12, previous: 8, change: 50 } });
    expect(report.kpis.averageOrderValue).toEqual({ state: "ok", value: { value: 7041.71, previous: 7500, change: -6.1 } });
    expect(report.kpis.conversionRate.state).toBe("ok");
    expect(report.charts.revenue).toEqual({ state: "ok", value: emulatorReport.charts.revenue });
    expect(report.charts.devices).toEqual({ state: "ok", value: [{ label: "mobile", value: 312 }, { label: "desktop", value: 72 }] });
    expect(report.charts.trafficSources).toEqual({ state: "ok", value: [{ label: "facebook", value: 184 }] });
    expect(report.charts.topProducts).toEqual({ state: "ok", value: [{ name: "Robe kabyle", count: 9, revenue: null }] });
    expect(report.charts.topWilayas).toEqual({ state: "ok", value: [{ name: "الجزائر", count: 4, revenue: null }] });
  });

  it("marks revenue figures removed (not zero, not missing) when the platform withholds them", () => {
    const { revenue: _revenue, average_order_value: _aov, ...kpis } = emulatorReport.kpis;
    const { revenue: _chart, ...charts } = emulatorReport.charts;
    const report = parseAnalyticsReport({ ...emulatorReport, kpis: { ...kpis, profit: null }, charts });
    expect(report.revenueRemoved).toBe(true);
    expect(report.kpis.revenue).toEqual({ state: "removed" });
    expect(report.kpis.averageOrderValue).toEqual({ state: "removed" });
    expect(report.kpis.profit).toEqual({ state: "removed" });
    expect(report.charts.revenue).toEqual({ state: "removed" });
    expect(report.kpis.orders.state).toBe("ok");
  });

  it("accepts other plausible shapes: plain numbers, numeric strings, date maps, label maps, tuples", () => {
    const report = parseAnalyticsReport({
      summary: { orders: 7, revenue: "1234.50", conversion_rate: "2.5%" },
      series: {
        orders: { "2026-03-02": 3, "2026-03-01": 4 },
        revenue: [["2026-03-01", "1000.00"], ["2026-03-02", 234.5]],
        devices: { mobile: 5, desktop: 2 },
        sources: [{ name: "direct", visits: 3 }],
        products: [{ title: "Sac", units: "2", revenue: "900.00" }],
      },
      computed_at: "2026-03-02T09:00:00+01:00",
    });
    expect(report.kpis.orders).toEqual({ state: "ok", value: { value: 7, previous: null, change: null } });
    expect(report.kpis.revenue).toEqual({ state: "ok", value: { value: 1234.5, previous: null, change: null } });
    expect(report.kpis.conversionRate).toEqual({ state: "ok", value: { value: 2.5, previous: null, change: null } });
    expect(report.charts.orders).toEqual({ state: "ok", value: [{ date: "2026-03-01", value: 4 }, { date: "2026-03-02", value: 3 }] });
    expect(report.charts.revenue).toEqual({ state: "ok", value: [{ date: "2026-03-01", value: 1000 }, { date: "2026-03-02", value: 234.5 }] });
    expect(report.charts.devices).toEqual({ state: "ok", value: [{ label: "mobile", value: 5 }, { label: "desktop", value: 2 }] });
    expect(report.charts.trafficSources).toEqual({ state: "ok", value: [{ label: "direct", value: 3 }] });
    expect(report.charts.topProducts).toEqual({ state: "ok", value: [{ name: "Sac", count: 2, revenue: 900 }] });
    expect(report.generatedAt?.toISOString()).toBe("2026-03-02T08:00:00.000Z");
    expect(report.revenueRemoved).toBe(false);
  });

  it("leaves out a part it cannot read, and keeps every other part", () => {
    const report = parseAnalyticsReport({
      ...emulatorReport,
      kpis: { ...emulatorReport.kpis, visitors: { value: "many" }, orders: [1, 2] },
      charts: {
        ...emulatorReport.charts,
        orders: [{ date: "2026-03-01", value: 5 }, { when: "tomorrow" }],
        devices: "mobile",
        top_wilayas: [{ wilaya_name: "", orders: 3 }],
        top_products: undefined,
      },
    });
    expect(report.kpis.orders).toEqual({ state: "unreadable" });
    expect(report.kpis.visitors).toEqual({ state: "unreadable" });
    expect(report.charts.orders).toEqual({ state: "unreadable" });
    expect(report.charts.devices).toEqual({ state: "unreadable" });
    expect(report.charts.topWilayas).toEqual({ state: "unreadable" });
    expect(report.charts.topProducts).toEqual({ state: "missing" });
    expect(report.kpis.revenue.state).toBe("ok");
    expect(report.charts.trafficSources.state).toBe("ok");
    expect(report.charts.revenue.state).toBe("ok");
  });

  it("an empty report is all missing parts, with no period and no computation time", () => {
    const report = parseAnalyticsReport({});
    expect(report.kpis.orders).toEqual({ state: "missing" });
    expect(report.charts.visitors).toEqual({ state: "missing" });
    expect(report).toMatchObject({ range: null, from: null, to: null, generatedAt: null });
    expect(parseAnalyticsReport({ generated_at: "not a date", from: "March" })).toMatchObject({ generatedAt: null, from: null });
  });

  it("a report that is not an object is a protocol error", () => {
    for (const data of [null, [], "report", 3]) {
      const error = (() => {
        try {
          parseAnalyticsReport(data, "req-1");
        } catch (caught) {
          return caught;
        }
      })();
      expect(error).toBeInstanceOf(PlatformError);
      expect((error as PlatformError).kind).toBe("protocol");
      expect((error as PlatformError).requestId).toBe("req-1");
    }
  });
});
