import { NotFoundPanel } from "@/components/not-found-panel";
import { getUi } from "@/i18n/server";

/**
 * An order that is not in this store (or never existed), answered with a 404. Not-found pages get no params, so
 * the way back is relative: from /stores/{id}/orders/{orderId}, "../orders" is the store's orders list.
 */
export default async function OrderNotFound() {
  const { t } = await getUi();
  return (
    <NotFoundPanel
      kind="order"
      title={t("NotFound.orderTitle")}
      body={t("NotFound.orderBody")}
      back={<a href="../orders">{t("NotFound.backToOrders")}</a>}
    />
  );
}
