import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { OverviewReport } from "@/components/overview/overview-report";
import type { Locale } from "@/i18n/locales";
import { parseAnalyticsReport } from "@/lib/platform";
import { formatsFor } from "@/i18n/format";
import { translator } from "../helpers/i18n";

/** The report's markup from a platform answer, through the real parser and components (server components, no state). */
function render(data: unknown, locale: Locale = "en"): string {
  return renderToStaticMarkup(createElement(OverviewReport, { report: parseAnalyticsReport(data), format: formatsFor(locale, "Africa/Algiers"), t: translator(locale) }));
}

const base = {
  from: "2026-03-01",
  to: "2026-03-02",
  kpis: { orders: { value: 3, previous: 4, change: -25 }, visitors: { value: 90, previous: 90, change: 0 }, conversion_rate: { value: 3.33, previous: null, change: null } },
  charts: {
    orders: [
      { date: "2026-03-01", value: 1 },
      { date: "2026-03-02", value: 2 },
    ],
    top_wilayas: [{ wilaya_name: "وهران", orders: 2 }],
    devices: [{ device: "mobile", value: 90 }],
    traffic_sources: [{ source: "facebook", value: 60 }, { source: "snapchat", value: 30 }],
    top_products: [],
  },
};

describe("OverviewReport", () => {
  it("leaves out a part it cannot read with a note, and shows every other part", () => {
    const html = render({ ...base, charts: { ...base.charts, devices: "mobile", top_wilayas: undefined } });
    expect(html).toContain("Left out of this overview");
    expect(html).toContain("Devices: the platform sent it in a form this app cannot read yet, so it is left out.");
    expect(html).toContain("Top wilayas: the platform&#x27;s answer did not include it.");
    expect(html).not.toContain('data-table="devices"');
    expect(html).toContain('data-table="traffic-sources"');
    expect(html).toContain('data-chart="orders-chart"');
    expect(html).toContain('data-kpi="orders"');
  });

  it("a complete report has no note; withheld revenue is said, not zero; change arrows carry words", () => {
    const html = render(base);
    expect(html).not.toContain("Left out of this overview");
    expect(html).toMatch(/data-kpi="revenue" data-state="removed"/);
    expect(html).toContain("Hidden by the platform");
    expect(html).toContain("Down 25%");
    expect(html).toContain('data-change="down"');
    expect(html).toContain("No change");
    expect(html).toContain("Revenue over time is hidden by the platform");
  });

  it("store data reads in its own direction; known devices and sources are named, unknown ones kept as sent", () => {
    const html = render(base);
    expect(html).toContain('<bdi dir="auto">وهران</bdi>');
    expect(html).toContain(">Phone<");
    expect(html).toContain(">Facebook<");
    expect(html).toContain('<bdi dir="auto">snapchat</bdi>');
    expect(html).toContain("None in this period.");
  });

  it("draws one bar per day with a summary for screen readers and the numbers in a table", () => {
    const html = render(base);
    expect(html.match(/<rect /g)).toHaveLength(2);
    expect(html).toContain('aria-label="Orders per day, Mar 1, 2026 to Mar 2, 2026: 3 in total, highest 2 on Mar 2, 2026."');
    expect(html).toContain('data-date="2026-03-02"');
  });

  it("speaks French and Arabic from the catalogue, with Western digits and localised dates", () => {
    const fr = render(base, "fr");
    expect(fr).toContain("Commandes par jour");
    expect(fr).toContain("En baisse de 25");
    expect(fr).toContain(">Téléphone<");
    expect(fr).toMatch(/aria-label="Commandes par jour, du 1 mars 2026 au 2 mars 2026 : 3 au total/);
    const ar = render(base, "ar");
    expect(ar).toContain("الطلبات يوميًا");
    expect(ar).toContain(">هاتف<");
    expect(ar).toContain("انخفاض بنسبة");
    expect(ar).not.toMatch(/[\u0660-\u0669\u06f0-\u06f9]/);
    expect(ar).toMatch(/data-value="?[^>]*>3</);
    expect(ar).not.toMatch(/Orders per day|Hidden by the platform/);
  });
});
