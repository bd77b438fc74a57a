import type { Translate } from "@/i18n/translate";
import { OverviewReport } from "@/components/overview/overview-report";
import { PeriodPicker } from "@/components/overview/period-picker";
import { interactivePlatform, isPlatformError, type AnalyticsReport } from "@/lib/platform";
import { describePlatformError, type PlatformRefusal } from "@/lib/merchant-text/platform-error";
import { overviewHref, parseOverviewQuery } from "@/lib/overview/query";
import { PlatformErrorPanel, sectionMetadata, storePage } from "./_components/store-page";

export const generateMetadata = sectionMetadata("overview");

async function loadReport(storeId: number, params: Parameters<ReturnType<typeof interactivePlatform>["analytics"]>[0], t: Translate) {
  try {
    return { report: await interactivePlatform(storeId).analytics(params) };
  } catch (error) {
    if (!isPlatformError(error)) throw error;
    const refusal = describePlatformError(error, t);
    // The period is the one thing the overview sends: a 400 is the platform refusing it.
    return { refusal: error.status === 400 ? { ...refusal, message: t("Overview.errors.periodRefused") } : refusal };
  }
}

/**
 * A store's home: its figures for a period, from the platform's analytics (`?range=`, `?from=`, `?to=`). A refusal
 * shows under the period picker, so another period stays one click away.
 */
export default storePage(
  "overview",
  async ({ storeId, searchParams, ui, heading }) => {
    const { t, format } = ui;
    const query = parseOverviewQuery(searchParams);
    const loaded: { report?: AnalyticsReport; refusal?: PlatformRefusal } = query.ok ? await loadReport(storeId, query.params, t) : {};
    const report = loaded.report;
    // The custom form starts from the period on screen, so widening or shifting it is one edit away.
    const from = query.from || report?.from || "";
    const to = query.to || report?.to || "";

    return (
      <div className="space-y-4">
        {heading}
        <PeriodPicker t={t} storeId={storeId} range={query.range} from={from} to={to} problem={query.ok ? null : query.problem} />
        {!query.ok ? <p className="text-sm text-slate-700">{t("Overview.period.notFetched")}</p> : null}
        {loaded.refusal ? (
          <PlatformErrorPanel
            ui={ui}
            title={t("Overview.errors.title")}
            message={loaded.refusal.message}
            retryHref={loaded.refusal.retryable && query.ok ? overviewHref(storeId, query.range, query) : undefined}
            reinstall={loaded.refusal.reinstall}
            requestId={loaded.refusal.requestId}
          />
        ) : null}
        {report ? (
          <>
            <div className="text-sm text-slate-700" data-period>
              {report.from && report.to ? (
                <p className="font-medium text-slate-900">
                  {format.date(report.from) === format.date(report.to)
                    ? t("Overview.summary.day", { date: format.date(report.from) })
                    : t("Overview.summary.period", { from: format.date(report.from), to: format.date(report.to) })}
                </p>
              ) : null}
              <p data-computed-at={report.generatedAt?.toISOString()}>
                {report.generatedAt ? t("Overview.summary.computedAt", { time: format.instant(report.generatedAt) }) : t("Overview.summary.computedUnknown")}{" "}
                {report.generatedAt ? t("Overview.summary.cacheNote") : null}
              </p>
            </div>
            <OverviewReport report={report} format={format} t={t} />
          </>
        ) : null}
      </div>
    );
  },
  { headingOf: "Overview.titleOf" },
);
