import type { ReactElement } from "react";
import { LinkWithStatus } from "@/components/link-with-status";
import { StatusBadge } from "@/components/status-badge";
import type { OrderListRow } from "@/db/queries/order-views";
import type { Translate } from "@/i18n/translate";
import { orDash, type Formats } from "@/i18n/format";
import { storeHref } from "@/lib/sections";

// The page is mostly rows, and each row's markup is sent twice (HTML and RSC payload), so a row is bare: its look,
// the store data's direction included, is the `orders-table` rule of app/globals.css (a `dir` per cell cost four
// attributes a row). Its link is not prefetched: a page shows up to 50 of them, and a prefetch per row in view would
// be as many requests to the server for orders the merchant mostly never opens.
//
// The order number is one text node, so it is the link's name as it stands. Its end is what tells orders apart
// ("ORD-101-20261123-" is shared by a day's orders, the 8 hex digits after it are not): on a narrow card the CSS
// cuts it from the front ("…20261123-0001869f"), never the end.

export function OrdersTable({ storeId, rows, t, format }: { storeId: number; rows: OrderListRow[]; t: Translate; format: Formats }) {
  // One status cell per status, shared by the rows in it: the RSC payload writes an element object once and refers
  // back to it after that, so a page of 50 rows carries at most 7 badges in full (the HTML still has every one).
  const statusCells = new Map<string, ReactElement>();
  const statusCell = (status: string) => {
    let cell = statusCells.get(status);
    if (!cell) {
      cell = (
        <td>
          <StatusBadge status={status} t={t} />
        </td>
      );
      statusCells.set(status, cell);
    }
    return cell;
  };
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
          {rows.map((row) => (
            <tr key={row.id}>
              <th scope="row">
                <LinkWithStatus href={orderHref + row.id} prefetch={false}>
                  {row.orderNumber}
                </LinkWithStatus>
              </th>
              <td>{format.dateTime(row.createdAt)}</td>
              <td>{orDash(row.customerName)}</td>
              <td>{orDash(row.customerPhone)}</td>
              <td>{orDash(row.wilayaName)}</td>
              <td>{format.money(row.total)}</td>
              {statusCell(row.status)}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
