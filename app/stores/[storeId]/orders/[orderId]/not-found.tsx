import { getUi } from "@/i18n/server";

/**
 * An order that is not in this store (or never existed), answered with a 404. Not-found pages get no params, so
 * the way back is relative: from /stores/{id}/orders/{orderId}, "../orders" is the store's orders list.
 */
export default async function OrderNotFound() {
  const { t } = await getUi();
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-6 text-center shadow-sm" data-not-found="order">
      <h1 className="text-lg font-semibold">{t("NotFound.orderTitle")}</h1>
      <p className="mt-2 text-slate-600">{t("NotFound.orderBody")}</p>
      <a href="../orders" className="mt-4 inline-block text-sm font-medium underline underline-offset-2">
        {t("NotFound.backToOrders")}
      </a>
    </section>
  );
}
