import { getUi } from "@/i18n/server";

/**
 * A list link whose page marker (`?cursor=`) this app never wrote: a 404 with the way back, rather than a silent
 * first page that looks like the page asked for. Not-found pages get no params, so the link is relative: from
 * /stores/{id}/orders, "orders" is that same list without its query.
 */
export default async function OrdersNotFound() {
  const { t } = await getUi();
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-6 text-center shadow-sm" data-not-found="orders-page">
      <h1 className="text-lg font-semibold">{t("NotFound.cursorTitle")}</h1>
      <p className="mt-2 text-slate-600">{t("NotFound.cursorBody")}</p>
      <a href="orders" className="mt-4 inline-block text-sm font-medium underline underline-offset-2">
        {t("NotFound.backToOrders")}
      </a>
    </section>
  );
}
