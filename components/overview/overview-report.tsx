import type { AnalyticsRankRow, AnalyticsReport, AnalyticsShare, ReportPart } from "@/lib/platform";
import type { OverviewFormat } from "@/lib/ui/overview-format";
import { overviewText } from "@/lib/ui/overview-text";
import { KpiTiles } from "./kpi-tiles";
import { RankingTable, type RankingRow } from "./ranking-table";
import { ReportNotes, type ReportNote } from "./report-notes";
import { SeriesChart } from "./series-chart";

const text = overviewText;

function shareRows(shares: AnalyticsShare[], names: Record<string, string>, format: OverviewFormat): RankingRow[] {
  const total = shares.reduce((sum, share) => sum + share.value, 0);
  return shares.map((share) => {
    const known = names[share.label.toLowerCase()];
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
export function OverviewReport({ report, format }: { report: AnalyticsReport; format: OverviewFormat }) {
  const { charts, kpis } = report;
  const notes: ReportNote[] = [];
  const note = (part: string, state: ReportPart<unknown>["state"]) => {
    if (state === "missing" || state === "unreadable") notes.push({ part, state });
  };
  note(text.kpis.names.orders, kpis.orders.state);
  // Revenue figures are never missing, only withheld (absent): the tiles and the chart say so themselves.
  note(text.kpis.names.visitors, kpis.visitors.state);
  note(text.kpis.names.conversionRate, kpis.conversionRate.state);
  note(text.charts.ordersTitle, charts.orders.state);
  note(text.charts.revenueTitle, charts.revenue.state);
  note(text.tables.topProducts, charts.topProducts.state);
  note(text.tables.topWilayas, charts.topWilayas.state);
  note(text.tables.devices, charts.devices.state);
  note(text.tables.trafficSources, charts.trafficSources.state);

  const productRevenue = charts.topProducts.state === "ok" && charts.topProducts.value.some((row) => row.revenue !== null);
  const wilayaRevenue = charts.topWilayas.state === "ok" && charts.topWilayas.value.some((row) => row.revenue !== null);

  return (
    <div className="space-y-4">
      <ReportNotes notes={notes} />
      <KpiTiles kpis={kpis} format={format} />
      <div className="grid items-start gap-4 lg:grid-cols-2">
        {charts.orders.state === "ok" ? (
          <SeriesChart
            id="orders-chart"
            title={text.charts.ordersTitle}
            points={charts.orders.value}
            formatValue={format.count}
            valueHeading={text.charts.orders}
            format={format}
          />
        ) : null}
        {charts.revenue.state === "ok" ? (
          <SeriesChart
            id="revenue-chart"
            title={text.charts.revenueTitle}
            points={charts.revenue.value}
            formatValue={format.money}
            valueHeading={text.charts.revenue}
            format={format}
          />
        ) : charts.revenue.state === "removed" ? (
          <section aria-labelledby="revenue-chart-title" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-chart="revenue-chart" data-state="removed">
            <h2 id="revenue-chart-title" className="font-semibold text-slate-900">
              {text.charts.revenueTitle}
            </h2>
            <p className="mt-2 text-sm text-slate-700">{text.charts.revenueRemoved}</p>
          </section>
        ) : null}
      </div>
      <div className="grid items-start gap-4 md:grid-cols-2">
        {charts.topProducts.state === "ok" ? (
          <RankingTable
            id="top-products"
            title={text.tables.topProducts}
            columns={[{ heading: text.tables.product }, { heading: text.tables.unitsSold, numeric: true }, ...(productRevenue ? [{ heading: text.tables.revenue, numeric: true }] : [])]}
            rows={rankRows(charts.topProducts.value, format, productRevenue)}
          />
        ) : null}
        {charts.topWilayas.state === "ok" ? (
          <RankingTable
            id="top-wilayas"
            title={text.tables.topWilayas}
            columns={[{ heading: text.tables.wilaya }, { heading: text.tables.orders, numeric: true }, ...(wilayaRevenue ? [{ heading: text.tables.revenue, numeric: true }] : [])]}
            rows={rankRows(charts.topWilayas.value, format, wilayaRevenue)}
          />
        ) : null}
        {charts.devices.state === "ok" ? (
          <RankingTable
            id="devices"
            title={text.tables.devices}
            columns={[{ heading: text.tables.device }, { heading: text.tables.visitors, numeric: true }, { heading: text.tables.share, numeric: true }]}
            rows={shareRows(charts.devices.value, text.tables.deviceNames, format)}
          />
        ) : null}
        {charts.trafficSources.state === "ok" ? (
          <RankingTable
            id="traffic-sources"
            title={text.tables.trafficSources}
            columns={[{ heading: text.tables.source }, { heading: text.tables.visitors, numeric: true }, { heading: text.tables.share, numeric: true }]}
            rows={shareRows(charts.trafficSources.value, text.tables.sourceNames, format)}
          />
        ) : null}
      </div>
    </div>
  );
}
