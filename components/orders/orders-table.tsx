import { AppLink } from "@/components/app-link";
import { StatusBadge } from "@/components/status-badge";
import type { OrderListRow } from "@/db/queries/order-views";
import type { Translate } from "@/i18n/translate";
import { orDash, type Formats } from "@/lib/ui/format";

// Shared by every cell, so each row's markup stays short (the page is mostly rows). Store data sits in <bdi>, the
// element form of dir="auto": an Arabic name reads right to left inside a French page and the reverse.
const CELL = "md:table-cell md:whitespace-nowrap md:px-3 md:py-2";

export function OrdersTable({ storeId, rows, t, format }: { storeId: number; rows: OrderListRow[]; t: Translate; format: Formats }) {
  return (
    // Below md each row is a two-column card (a wide table would scroll sideways on a phone); from md up, a table.
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
      <table className="block w-full text-sm md:table md:min-w-full md:divide-y md:divide-slate-200">
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
            <tr key={row.id} data-order-id={row.id} className="grid grid-cols-2 gap-x-3 gap-y-1 px-3 py-3 hover:bg-slate-50 md:table-row md:p-0">
              <th scope="row" className={`truncate text-start font-medium ${CELL}`}>
                <AppLink href={`/stores/${storeId}/orders/${row.id}`} className="underline decoration-slate-300 underline-offset-2">
                  {row.orderNumber}
                </AppLink>
              </th>
              <td className={`text-end text-slate-600 md:text-start ${CELL}`}>
                <time dateTime={row.createdAt.toISOString()}>{format.dateTime(row.createdAt)}</time>
              </td>
              <td className={`truncate ${CELL}`}>
                <bdi>{orDash(row.customerName)}</bdi>
              </td>
              <td className={`text-end md:text-start ${CELL}`}>
                <bdi dir="ltr">{orDash(row.customerPhone)}</bdi>
              </td>
              <td className={CELL}>
                <bdi>{orDash(row.wilayaName)}</bdi>
              </td>
              <td className={`text-end tabular-nums ${CELL}`}>{format.money(row.total)}</td>
              <td className={CELL}>
                <StatusBadge status={row.status} t={t} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
