import type { Translate } from "@/i18n/translate";
import type { AnalyticsPoint } from "@/lib/platform";
import type { Formats as OverviewFormat } from "@/i18n/format";

const WIDTH = 600;
const HEIGHT = 160;

/**
 * A bar chart drawn on the server as SVG: no client code, so it costs the first load nothing. The SVG is one
 * image with a sentence for screen readers (total, highest day); the numbers themselves are in a data table
 * under it. Time runs in the reading direction: the SVG is mirrored in right-to-left, and its labels are HTML laid
 * out with logical properties.
 */
export function SeriesChart({
  id,
  title,
  points,
  formatValue,
  valueHeading,
  format,
  t,
}: {
  id: string;
  title: string;
  points: AnalyticsPoint[];
  formatValue: (value: number) => string;
  valueHeading: string;
  format: OverviewFormat;
  t: Translate;
}) {
  const first = points[0]?.date ?? "";
  const last = points.at(-1)?.date ?? "";
  const total = points.reduce((sum, point) => sum + point.value, 0);
  const top = points.reduce<AnalyticsPoint | null>((best, point) => (best === null || point.value > best.value ? point : best), null);
  const max = Math.max(0, ...points.map((point) => point.value));
  // One day is said as that day, not "from 24 Nov to 24 Nov"; its highest day would repeat it.
  const oneDay = first === last;
  const summary =
    top === null || max === 0
      ? oneDay
        ? t("Overview.charts.summaryEmptyDay", { title, date: format.date(first) })
        : t("Overview.charts.summaryEmpty", { title, from: format.date(first), to: format.date(last) })
      : oneDay
        ? t("Overview.charts.summaryDay", { title, date: format.date(first), total: formatValue(total) })
        : t("Overview.charts.summary", {
            title,
            from: format.date(first),
            to: format.date(last),
            total: formatValue(total),
            max: formatValue(top.value),
            maxDate: format.date(top.date),
          });
  const slot = points.length > 0 ? WIDTH / points.length : WIDTH;
  const gap = slot > 4 ? slot * 0.2 : 0;

  return (
    <figure className="min-w-0 rounded-lg border border-slate-200 bg-white p-4 shadow-sm" aria-labelledby={`${id}-title`} data-chart={id}>
      <figcaption id={`${id}-title`} className="font-semibold text-slate-900">
        {title}
      </figcaption>
      <div className="mt-3 flex items-start gap-2">
        <div className="w-full min-w-0">
          <svg
            viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
            preserveAspectRatio="none"
            role="img"
            aria-label={summary}
            className="h-40 w-full rtl:-scale-x-100"
            data-summary
          >
            <line x1="0" y1={HEIGHT - 0.5} x2={WIDTH} y2={HEIGHT - 0.5} className="stroke-slate-300" strokeWidth="1" />
            <line x1="0" y1="0.5" x2={WIDTH} y2="0.5" className="stroke-slate-200" strokeWidth="1" strokeDasharray="4 4" />
            {max > 0
              ? points.map((point, index) => {
                  const height = (point.value / max) * (HEIGHT - 4);
                  return (
                    <rect
                      key={point.date}
                      x={index * slot + gap / 2}
                      y={HEIGHT - height}
                      width={Math.max(slot - gap, 0.5)}
                      height={height}
                      className="fill-sky-700"
                    />
                  );
                })
              : null}
          </svg>
          <div aria-hidden="true" className="mt-1 flex justify-between gap-2 text-xs text-slate-600">
            <span>{format.shortDate(first)}</span>
            <span>{format.shortDate(last)}</span>
          </div>
        </div>
        <p aria-hidden="true" className="shrink-0 text-xs tabular-nums text-slate-600">
          {formatValue(max)}
        </p>
      </div>
      <details className="mt-3 text-sm">
        <summary className="cursor-pointer rounded font-medium text-slate-800 underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900">
          {t("Overview.charts.asTable", { title })}
        </summary>
        <div className="mt-2">
          <table className="w-full text-start text-sm">
            <caption className="sr-only">{title}</caption>
            <thead>
              <tr className="border-b border-slate-200">
                <th scope="col" className="py-1 pe-3 text-start font-medium">
                  {t("Overview.charts.date")}
                </th>
                <th scope="col" className="py-1 text-end font-medium">
                  {valueHeading}
                </th>
              </tr>
            </thead>
            <tbody>
              {points.map((point) => (
                <tr key={point.date} className="border-b border-slate-100" data-date={point.date}>
                  <th scope="row" className="py-1 pe-3 text-start font-normal">
                    {format.date(point.date)}
                  </th>
                  <td className="py-1 text-end tabular-nums">{formatValue(point.value)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
