import type { Translate } from "@/i18n/translate";
import type { AnalyticsRankRow, AnalyticsReport, AnalyticsShare, ReportPart } from "@/lib/platform";
import type { Formats as OverviewFormat } from "@/i18n/format";
import { KpiTiles } from "./kpi-tiles";
import { RankingTable, type RankingRow } from "./ranking-table";
import { ReportNotes, type ReportNote } from "./report-notes";
import { SeriesChart } from "./series-chart";

const DEVICES: ReadonlySet<string> = new Set(["mobile", "desktop", "tablet"]);
const SOURCES: ReadonlySet<string> = new Set(["facebook", "instagram", "tiktok", "google", "direct", "other"]);

/** Names for the devices and sources the platform knows; anything else is kept as the platform sent it. */
function shareRows(shares: AnalyticsShare[], name: (label: string) => string | undefined, format: OverviewFormat): RankingRow[] {
  const total = shares.reduce((sum, share) => sum + share.value, 0);
  return shares.map((share) => {
    const known = name(share.label.toLowerCase());
    return {
      key: share.label,
      name: known ?? share.label,
      nameIsStoreData: known === undefined,
      cells: [format.count(share.value), total > 0 ? format.percent((share.value / total) * 100) : "—"],
    };
  });
}

function rankRows(rows: AnalyticsRankRow[], format: OverviewFormat, withRevenue: boolean): RankingRow[] {
  return rows.map((row, index) => ({
    key: `${index}:${row.name}`,
    name: row.name,
    nameIsStoreData: true,
    cells: [row.count === null ? "—" : format.count(row.count), ...(withRevenue ? [row.revenue === null ? "—" : format.money(row.revenue)] : [])],
  }));
}

/** The report's figures: tiles, the two charts and the four tables; parts the platform left out are listed above them. */
export function OverviewReport({ report, format, t }: { report: AnalyticsReport; format: OverviewFormat; t: Translate }) {
  const deviceName = (label: string) => (DEVICES.has(label) ? t(`Overview.tables.deviceNames.${label}`) : undefined);
  const sourceName = (label: string) => (SOURCES.has(label) ? t(`Overview.tables.sourceNames.${label}`) : undefined);
  const { charts, kpis } = report;
  const notes: ReportNote[] = [];
  const note = (part: string, state: ReportPart<unknown>["state"]) => {
    if (state === "missing" || state === "unreadable") notes.push({ part, state });
  };
  note(t("Overview.kpis.names.orders"), kpis.orders.state);
  // Revenue figures are never missing, only withheld (absent): the tiles and the chart say so themselves.
  note(t("Overview.kpis.names.visitors"), kpis.visitors.state);
  note(t("Overview.kpis.names.conversionRate"), kpis.conversionRate.state);
  note(t("Overview.charts.ordersTitle"), charts.orders.state);
  note(t("Overview.charts.revenueTitle"), charts.revenue.state);
  note(t("Overview.tables.topProducts"), charts.topProducts.state);
  note(t("Overview.tables.topWilayas"), charts.topWilayas.state);
  note(t("Overview.tables.devices"), charts.devices.state);
  note(t("Overview.tables.trafficSources"), charts.trafficSources.state);

  const productRevenue = charts.topProducts.state === "ok" && charts.topProducts.value.some((row) => row.revenue !== null);
  const wilayaRevenue = charts.topWilayas.state === "ok" && charts.topWilayas.value.some((row) => row.revenue !== null);

  return (
    <div className="space-y-4">
      <ReportNotes notes={notes} t={t} />
      <KpiTiles kpis={kpis} format={format} t={t} />
      <div className="grid items-start gap-4 lg:grid-cols-2">
        {charts.orders.state === "ok" ? (
          <SeriesChart
            id="orders-chart"
            title={t("Overview.charts.ordersTitle")}
            points={charts.orders.value}
            formatValue={format.count}
            valueHeading={t("Overview.charts.orders")}
            format={format}
            t={t}
          />
        ) : null}
        {charts.revenue.state === "ok" ? (
          <SeriesChart
            id="revenue-chart"
            title={t("Overview.charts.revenueTitle")}
            points={charts.revenue.value}
            formatValue={format.money}
            valueHeading={t("Overview.charts.revenue")}
            format={format}
            t={t}
          />
        ) : charts.revenue.state === "removed" ? (
          <section aria-labelledby="revenue-chart-title" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-chart="revenue-chart" data-state="removed">
            <h2 id="revenue-chart-title" className="font-semibold text-slate-900">
              {t("Overview.charts.revenueTitle")}
            </h2>
            <p className="mt-2 text-sm text-slate-700">{t("Overview.charts.revenueRemoved")}</p>
          </section>
        ) : null}
      </div>
      <div className="grid items-start gap-4 md:grid-cols-2">
        {charts.topProducts.state === "ok" ? (
          <RankingTable
            id="top-products"
            title={t("Overview.tables.topProducts")}
            columns={[{ heading: t("Overview.tables.product") }, { heading: t("Overview.tables.unitsSold"), numeric: true }, ...(productRevenue ? [{ heading: t("Overview.tables.revenue"), numeric: true }] : [])]}
            t={t}
            rows={rankRows(charts.topProducts.value, format, productRevenue)}
          />
        ) : null}
        {charts.topWilayas.state === "ok" ? (
          <RankingTable
            id="top-wilayas"
            title={t("Overview.tables.topWilayas")}
            columns={[{ heading: t("Overview.tables.wilaya") }, { heading: t("Overview.tables.orders"), numeric: true }, ...(wilayaRevenue ? [{ heading: t("Overview.tables.revenue"), numeric: true }] : [])]}
            t={t}
            rows={rankRows(charts.topWilayas.value, format, wilayaRevenue)}
          />
        ) : null}
        {charts.devices.state === "ok" ? (
          <RankingTable
            id="devices"
            title={t("Overview.tables.devices")}
            columns={[{ heading: t("Overview.tables.device") }, { heading: t("Overview.tables.visitors"), numeric: true }, { heading: t("Overview.tables.share"), numeric: true }]}
            t={t}
            rows={shareRows(charts.devices.value, deviceName, format)}
          />
        ) : null}
        {charts.trafficSources.state === "ok" ? (
          <RankingTable
            id="traffic-sources"
            title={t("Overview.tables.trafficSources")}
            columns={[{ heading: t("Overview.tables.source") }, { heading: t("Overview.tables.visitors"), numeric: true }, { heading: t("Overview.tables.share"), numeric: true }]}
            t={t}
            rows={shareRows(charts.trafficSources.value, sourceName, format)}
          />
        ) : null}
      </div>
    </div>
  );
}
