import { NotFoundPanel } from "@/components/not-found-panel";
import { getUi } from "@/i18n/server";

/**
 * A list link whose page marker (`?cursor=`) this app never wrote: a 404 with the way back, rather than a silent
 * first page that looks like the page asked for. Not-found pages get no params, so the link is relative: from
 * /stores/{id}/orders, "orders" is that same list without its query.
 */
export default async function OrdersNotFound() {
  const { t } = await getUi();
  return (
    <NotFoundPanel
      kind="orders-page"
      title={t("NotFound.cursorTitle")}
      body={t("NotFound.cursorBody")}
      back={<a href="orders">{t("NotFound.backToOrders")}</a>}
    />
  );
}
