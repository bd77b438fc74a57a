import Link from "next/link";
import { StatusBadge } from "@/components/status-badge";
import type { OrderListRow } from "@/db/queries/order-views";
import { formatDateTime, formatMoney, orDash } from "@/lib/ui/format";

export function OrdersTable({ storeId, rows }: { storeId: number; rows: OrderListRow[] }) {
  return (
    // Below md each row is a two-column card (a wide table would scroll sideways on a phone); from md up, a table.
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
      <table className="block w-full text-sm md:table md:min-w-full md:divide-y md:divide-slate-200">
        <caption className="sr-only">Orders, newest first</caption>
        <thead className="sr-only bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600 md:not-sr-only md:table-header-group">
          <tr>
            <th scope="col" className="px-3 py-2">Order</th>
            <th scope="col" className="px-3 py-2">Date</th>
            <th scope="col" className="px-3 py-2">Customer</th>
            <th scope="col" className="px-3 py-2">Phone</th>
            <th scope="col" className="px-3 py-2">Wilaya</th>
            <th scope="col" className="px-3 py-2 text-right">Total</th>
            <th scope="col" className="px-3 py-2">Status</th>
          </tr>
        </thead>
        <tbody className="block divide-y divide-slate-100 md:table-row-group">
          {rows.map((row) => (
            <tr
              key={row.id}
              data-order-id={row.id}
              className="grid grid-cols-2 gap-x-3 gap-y-1 px-3 py-3 hover:bg-slate-50 md:table-row md:p-0"
            >
              <th scope="row" className="truncate text-left font-medium md:table-cell md:whitespace-nowrap md:px-3 md:py-2">
                <Link
                  href={`/stores/${storeId}/orders/${row.id}`}
                  className="text-slate-900 underline decoration-slate-300 underline-offset-2 hover:decoration-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900"
                >
                  {row.orderNumber}
                </Link>
              </th>
              <td className="text-right text-slate-600 md:table-cell md:whitespace-nowrap md:px-3 md:py-2 md:text-left">
                <time dateTime={row.createdAt.toISOString()}>{formatDateTime(row.createdAt)}</time>
              </td>
              <td className="truncate md:table-cell md:max-w-[14rem] md:px-3 md:py-2">
                <span dir="auto">{orDash(row.customerName)}</span>
              </td>
              <td className="text-right md:table-cell md:whitespace-nowrap md:px-3 md:py-2 md:text-left" dir="ltr">
                {orDash(row.customerPhone)}
              </td>
              <td className="md:table-cell md:whitespace-nowrap md:px-3 md:py-2">
                <span dir="auto">{orDash(row.wilayaName)}</span>
              </td>
              <td className="text-right tabular-nums md:table-cell md:whitespace-nowrap md:px-3 md:py-2">{formatMoney(row.total)}</td>
              <td className="md:table-cell md:px-3 md:py-2">
                <StatusBadge status={row.status} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
