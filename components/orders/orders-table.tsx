import { StatusBadge } from "@/components/status-badge";
import type { OrderListRow } from "@/db/queries/order-views";
import type { Translate } from "@/i18n/translate";
import { orDash, type Formats } from "@/i18n/format";
import { storeHref } from "@/lib/sections";

// The page is mostly rows, and each row's markup is sent twice (HTML and RSC payload), so a row is bare: its look is
// the `orders-table` rule of app/globals.css, and its link a plain <a> that the page's AppLinks routes. Store data
// cells carry dir="auto" (an Arabic name reads right to left inside a French page and the reverse) and the phone
// dir="ltr" ("+213…" keeps its plus in front in Arabic); globals.css keeps their alignment that of the page.

/**
 * The end of an order number is what tells orders apart ("ORD-101-20261123-" is shared by a day's orders, the 8 hex
 * digits after it are not): the head may be cut short on a phone, the tail never is. The link's name is the whole
 * number (aria-label): the two parts are flex items, which a screen reader would otherwise read apart.
 */
const TAIL_LENGTH = 8;
export function orderNumberHead(orderNumber: string): string {
  return orderNumber.slice(0, Math.max(0, orderNumber.length - TAIL_LENGTH));
}
export function orderNumberTail(orderNumber: string): string {
  return orderNumber.slice(Math.max(0, orderNumber.length - TAIL_LENGTH));
}

export function OrdersTable({ storeId, rows, t, format }: { storeId: number; rows: OrderListRow[]; t: Translate; format: Formats }) {
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
          {rows.map((row) => (
            <tr key={row.id}>
              <th scope="row">
                <a href={storeHref(storeId, ["orders", row.id])} dir="ltr" aria-label={row.orderNumber}>
                  <span>{orderNumberHead(row.orderNumber)}</span>
                  <span>{orderNumberTail(row.orderNumber)}</span>
                </a>
              </th>
              <td>{format.dateTime(row.createdAt)}</td>
              <td dir="auto">{orDash(row.customerName)}</td>
              <td dir="ltr">{orDash(row.customerPhone)}</td>
              <td dir="auto">{orDash(row.wilayaName)}</td>
              <td>{format.money(row.total)}</td>
              <td>
                <StatusBadge status={row.status} t={t} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
