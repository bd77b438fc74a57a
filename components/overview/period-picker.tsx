import type { Translate } from "@/i18n/translate";
import type { AnalyticsRange } from "@/lib/platform";
import { overviewHref, type PeriodProblem } from "@/lib/overview/query";
import { storeHref } from "@/lib/sections";

const PRESETS: Exclude<AnalyticsRange, "custom">[] = ["today", "yesterday", "7d", "30d", "this_month", "last_month", "this_year"];
const FOCUS = "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900";

function inputClass(invalid: boolean): string {
  return `mt-1 block w-full min-w-0 rounded-md border bg-white px-2 py-1.5 text-sm ${invalid ? "border-rose-600" : "border-slate-300"} ${FOCUS}`;
}

/** One end of the custom range; a refusal points the field at the message, otherwise at the format hint. */
function DateField({ name, label, value, problem }: { name: "from" | "to"; label: string; value: string | undefined; problem: boolean }) {
  return (
    <label className="min-w-0 flex-1 basis-36 text-sm">
      {label}
      <input
        type="date"
        name={name}
        defaultValue={value}
        required
        aria-invalid={problem || undefined}
        aria-describedby={problem ? "period-problem" : "period-hint"}
        className={inputClass(problem)}
      />
    </label>
  );
}

/**
 * The period: preset links and a plain GET form for a custom range. Both work without JavaScript; the form's
 * dates are checked on the server before any platform call, and a refusal is shown next to the field it concerns.
 */
export function PeriodPicker({
  t,
  storeId,
  range,
  from,
  to,
  problem,
}: {
  t: Translate;
  storeId: number;
  range: string;
  from: string;
  to: string;
  problem: PeriodProblem | null;
}) {
  const toProblem = problem === "to_invalid" || problem === "to_before_from" || problem === "too_long";
  const fromProblem = problem === "from_invalid";
  return (
    <section aria-labelledby="period-heading" className="space-y-3">
      <h2 id="period-heading" className="sr-only">
        {t("Overview.period.legend")}
      </h2>
      <nav aria-label={t("Overview.period.presetsLabel")}>
        <ul className="flex flex-wrap gap-1.5">
          {PRESETS.map((preset) => {
            const current = preset === range;
            return (
              <li key={preset}>
                <a
                  href={overviewHref(storeId, preset)}
                  aria-current={current ? "page" : undefined}
                  className={`inline-block rounded-full border px-3 py-1 text-sm font-medium ${FOCUS} ${
                    current ? "border-slate-900 bg-slate-900 text-white" : "border-slate-300 bg-white text-slate-800 hover:bg-slate-100"
                  }`}
                >
                  {t(`Overview.period.ranges.${preset}`)}
                </a>
              </li>
            );
          })}
        </ul>
      </nav>
      <form method="get" action={storeHref(storeId)} noValidate className="rounded-lg border border-slate-200 bg-white p-3">
        <fieldset>
          <legend className={`text-sm font-medium ${range === "custom" ? "text-slate-900" : "text-slate-700"}`}>{t("Overview.period.customLegend")}</legend>
          <input type="hidden" name="range" value="custom" />
          <div className="mt-2 flex flex-wrap items-end gap-3">
            <DateField name="from" label={t("Overview.period.from")} value={from} problem={fromProblem} />
            <DateField name="to" label={t("Overview.period.to")} value={to} problem={toProblem} />
            <button type="submit" className={`rounded-md bg-slate-900 px-4 py-1.5 text-sm font-medium text-white hover:bg-slate-700 ${FOCUS}`}>
              {t("Overview.period.show")}
            </button>
          </div>
          <p id="period-hint" className="mt-1 text-xs text-slate-600">
            {t("Overview.period.dateHint")}
          </p>
          {problem ? (
            <p id="period-problem" role="alert" className="mt-2 text-sm font-medium text-rose-800">
              {t(`Overview.period.problems.${problem}`)}
            </p>
          ) : null}
        </fieldset>
      </form>
    </section>
  );
}
