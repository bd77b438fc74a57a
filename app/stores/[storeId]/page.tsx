import type { Metadata } from "next";
import { requireStoreOf, type StorePageProps } from "@/lib/ui/store-page";
import { orDatabaseUnavailable } from "@/components/database-unavailable";
import { ErrorPanel } from "@/components/error-panel";
import { getUi } from "@/i18n/server";
import type { Translate } from "@/i18n/translate";
import { OverviewReport } from "@/components/overview/overview-report";
import { PeriodPicker } from "@/components/overview/period-picker";
import { interactivePlatform, isPlatformError, type AnalyticsReport } from "@/lib/platform";
import { describeOverviewError, type OverviewRefusal } from "@/lib/ui/overview-errors";
import { overviewFormat } from "@/lib/ui/overview-format";
import { overviewHref, parseOverviewQuery } from "@/lib/ui/overview-query";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getUi();
  return { title: t("Overview.title") };
}

async function loadReport(storeId: number, params: Parameters<ReturnType<typeof interactivePlatform>["analytics"]>[0], t: Translate) {
  try {
    return { report: await interactivePlatform(storeId).analytics(params) };
  } catch (error) {
    if (isPlatformError(error)) return { refusal: describeOverviewError(error, t) };
    throw error;
  }
}

/** A store's home: its figures for a period, from the platform's analytics (`?range=`, `?from=`, `?to=`). */
export default async function StoreOverview(props: StorePageProps) {
  const { storeId } = await props.params;
  return orDatabaseUnavailable(() => Overview(props), { retry: `/stores/${encodeURIComponent(storeId)}` });
}

async function Overview({ params, searchParams }: StorePageProps) {
  const { storeId, install } = await requireStoreOf(params);
  const query = parseOverviewQuery(await searchParams);
  const { t, locale } = await getUi();
  const format = overviewFormat(locale);
  const loaded: { report?: AnalyticsReport; refusal?: OverviewRefusal } = query.ok ? await loadReport(storeId, query.params, t) : {};
  const report = loaded.report;
  // The custom form starts from the period on screen, so widening or shifting it is one edit away.
  const from = query.from || report?.from || "";
  const to = query.to || report?.to || "";

  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold tracking-tight">
        {t("Overview.title")} <span className="sr-only">{t("Overview.titleOf")}</span>{" "}
        <span dir="auto" className="text-base font-normal text-slate-500">
          {install.storeName}
        </span>
      </h1>
      <PeriodPicker t={t} storeId={storeId} range={query.range} from={from} to={to} problem={query.ok ? null : query.problem} />
      {!query.ok ? <p className="text-sm text-slate-700">{t("Overview.period.notFetched")}</p> : null}
      {loaded.refusal ? (
        <ErrorPanel
          title={t("Overview.errors.title")}
          message={loaded.refusal.message}
          retryHref={loaded.refusal.retry && query.ok ? overviewHref(storeId, query.range, query) : undefined}
          reinstall={loaded.refusal.reinstall}
          labels={{
            tryAgain: t("Errors.tryAgain"),
            reinstall: t("Errors.reinstall"),
            requestId: loaded.refusal.requestId ? t("Errors.requestId", { id: loaded.refusal.requestId }) : undefined,
          }}
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
}
