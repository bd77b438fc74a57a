import type { Rich, Translate } from "@/i18n/translate";

/** No orders at all, or none matching the filters: say which, and where the next step is. */
export function OrdersEmpty({
  filtered,
  connected,
  clearHref,
  dashboardUrl,
  t,
  rich,
}: {
  filtered: boolean;
  connected: boolean;
  clearHref: string;
  dashboardUrl: string | null;
  t: Translate;
  rich: Rich;
}) {
  if (filtered) {
    return (
      <section className="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center">
        <h2 className="text-base font-semibold">{t("Orders.noMatchTitle")}</h2>
        <p className="mt-1 text-sm text-slate-600">{t("Orders.noMatchBody")}</p>
        <a href={clearHref} className="mt-3 inline-block text-sm font-medium underline underline-offset-2">
          {t("Orders.clear")}
        </a>
      </section>
    );
  }
  return (
    <section className="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center">
      <h2 className="text-base font-semibold">{t("Orders.emptyTitle")}</h2>
      <p className="mx-auto mt-1 max-w-prose text-sm text-slate-600">{connected ? t("Orders.emptyBody") : t("Orders.emptyReadOnly")}</p>
      {dashboardUrl && connected ? (
        <p className="mx-auto mt-3 max-w-prose text-sm text-slate-600">
          {rich("Orders.emulatorHint", {
            link: (chunks) => (
              <a href={dashboardUrl} target="_blank" rel="noreferrer" className="font-medium text-slate-900 underline underline-offset-2">
                {chunks}
              </a>
            ),
          })}
        </p>
      ) : null}
    </section>
  );
}
