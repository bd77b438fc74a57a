import type { OrderListRow } from "@/db/queries/order-views";
import type { Translate } from "@/i18n/translate";
import { orDash, type Formats } from "@/i18n/format";
import { statusKey } from "@/lib/orders/status";
import { storeHref } from "@/lib/sections";
import { OrderRows, type OrderRowCells } from "./order-rows";

// The page is mostly rows, so a row is bare: its look, the store data's direction included, is the `orders-table`
// rule of app/globals.css (a `dir` per cell cost four attributes a row), and it reaches the browser as data
// (./order-rows.tsx), not as markup in the RSC payload.
//
// The order number is one text node, so it is the link's name as it stands. Its end is what tells orders apart
// ("ORD-101-20261123-" is shared by a day's orders, the 8 hex digits after it are not): on a narrow card the CSS
// cuts it from the front ("…20261123-0001869f"), never the end.

export function OrdersTable({ storeId, rows, t, format }: { storeId: number; rows: OrderListRow[]; t: Translate; format: Formats }) {
  // Each status on the page named once, in the merchant's language (a status the platform adds later reads "Unknown").
  // A Map, as a status is the platform's text and an object's keys include "__proto__".
  const statusLabels = new Map<string, string>();
  const cells = rows.map((row): OrderRowCells => {
    if (!statusLabels.has(row.status)) statusLabels.set(row.status, t(statusKey(row.status)));
    return [row.id, row.orderNumber, format.dateTime(row.createdAt), orDash(row.customerName), orDash(row.customerPhone), orDash(row.wilayaName), format.money(row.total), row.status];
  });
  // Each row's link is the list's address and the order's id (digits, nothing to escape): one storeHref per page.
  const orderHref = `${storeHref(storeId, "orders")}/`;
  return (
    // Below md each row is a two-column card (a wide table would scroll sideways on a phone); from md up, a table.
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
      <table className="orders-table block w-full text-sm md:table md:min-w-full md:divide-y md:divide-slate-200">
        <caption className="sr-only">{t("Orders.caption", { zone: format.zoneName })}</caption>
        <thead className="sr-only bg-slate-50 text-start text-xs font-semibold text-slate-600 md:not-sr-only md:table-header-group">
          <tr>
            <th scope="col" className="px-3 py-2 text-start">{t("Orders.order")}</th>
            <th scope="col" className="px-3 py-2 text-start">
              {t("Orders.date")} <span className="font-normal">({format.zoneName})</span>
            </th>
            <th scope="col" className="px-3 py-2 text-start">{t("Orders.customer")}</th>
            <th scope="col" className="px-3 py-2 text-start">{t("Orders.phoneColumn")}</th>
            <th scope="col" className="px-3 py-2 text-start">{t("Orders.wilaya")}</th>
            <th scope="col" className="px-3 py-2 text-end">{t("Orders.total")}</th>
            <th scope="col" className="px-3 py-2 text-start">{t("Orders.statusColumn")}</th>
          </tr>
        </thead>
        <tbody className="block divide-y divide-slate-100 md:table-row-group">
          <OrderRows href={orderHref} rows={cells} statusLabels={statusLabels} />
        </tbody>
      </table>
    </div>
  );
}
