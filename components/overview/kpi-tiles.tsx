import type { Translate } from "@/i18n/translate";
import type { AnalyticsKpi, AnalyticsKpiName, AnalyticsReport, ReportPart } from "@/lib/platform";
import type { Formats as OverviewFormat } from "@/i18n/format";

const MONEY: ReadonlySet<AnalyticsKpiName> = new Set(["revenue", "averageOrderValue", "profit"]);
const ORDER: AnalyticsKpiName[] = ["orders", "revenue", "averageOrderValue", "profit", "visitors", "conversionRate"];

function formatValue(name: AnalyticsKpiName, value: number, format: OverviewFormat): string {
  if (MONEY.has(name)) return format.money(value);
  if (name === "conversionRate") return format.percent(value);
  return format.count(value);
}

/**
 * Up and down are vertical arrows, so they read the same in right-to-left; the colour repeats the arrow (every
 * figure here is better higher) and the words say it again for screen readers and for colour-blind eyes.
 */
function Change({ name, kpi, format, t }: { name: AnalyticsKpiName; kpi: AnalyticsKpi; format: OverviewFormat; t: Translate }) {
  if (kpi.change === null) return <p className="text-xs text-slate-600">{t("Overview.kpis.noComparison")}</p>;
  const magnitude = format.percent(Math.abs(kpi.change));
  const direction = kpi.change > 0 ? "up" : kpi.change < 0 ? "down" : "flat";
  const words = direction === "up"
      ? t("Overview.kpis.up", { change: magnitude })
      : direction === "down"
        ? t("Overview.kpis.down", { change: magnitude })
        : t("Overview.kpis.flat");
  const arrow = direction === "up" ? "↑" : direction === "down" ? "↓" : "→";
  const tone = direction === "up" ? "text-emerald-800" : direction === "down" ? "text-rose-800" : "text-slate-700";
  const previous = kpi.previous === null
      ? t("Overview.kpis.vsPreviousUnknown")
      : t("Overview.kpis.vsPrevious", { previous: formatValue(name, kpi.previous, format) });
  return (
    <p className="text-xs text-slate-600" data-change={direction}>
      <span className={`font-semibold ${tone}`}>
        <span aria-hidden="true">{arrow} </span>
        {words}
      </span>{" "}
      {previous}
    </p>
  );
}

function Tile({ name, part, format, t }: { name: AnalyticsKpiName; part: ReportPart<AnalyticsKpi>; format: OverviewFormat; t: Translate }) {
  return (
    <div className="@container min-w-0 rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-kpi={name} data-state={part.state}>
      <dt className="text-sm font-medium text-slate-600">{t(`Overview.kpis.names.${name}`)}</dt>
      {part.state === "ok" ? (
        <>
          {/* An amount never breaks across lines: the figure shrinks with its tile instead (at most 1.5rem). */}
          <dd className="mt-1 whitespace-nowrap text-[min(1.5rem,10cqi)] font-semibold tabular-nums text-slate-900" data-value>
            {formatValue(name, part.value.value, format)}
          </dd>
          <dd className="mt-1">
            <Change name={name} kpi={part.value} format={format} t={t} />
          </dd>
        </>
      ) : part.state === "removed" ? (
        <>
          <dd className="mt-1 text-base font-semibold text-slate-800">{t("Overview.kpis.removed")}</dd>
          <dd className="mt-1 text-xs text-slate-600">{t("Overview.kpis.removedWhy")}</dd>
        </>
      ) : (
        <dd className="mt-1 text-base font-semibold text-slate-700">{t("Overview.kpis.unavailable")}</dd>
      )}
    </div>
  );
}

/**
 * One tile per KPI. Revenue figures the platform withheld say so (never a zero); profit is shown only when the
 * platform reports it, since its absence alone tells nothing when revenue is present.
 */
export function KpiTiles({ kpis, format, t }: { kpis: AnalyticsReport["kpis"]; format: OverviewFormat; t: Translate }) {
  const shown = ORDER.filter((name) => (name === "profit" ? kpis[name].state === "ok" : kpis[name].state === "ok" || kpis[name].state === "removed"));
  return (
    <section aria-labelledby="kpis-heading">
      <h2 id="kpis-heading" className="sr-only">
        {t("Overview.kpis.heading")}
      </h2>
      <dl className="grid grid-cols-1 gap-3 min-[360px]:grid-cols-2 lg:grid-cols-5">
        {shown.map((name) => (
          <Tile key={name} name={name} part={kpis[name]} format={format} t={t} />
        ))}
      </dl>
    </section>
  );
}
