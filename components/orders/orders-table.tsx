import Link from "next/link";
import { StatusBadge } from "@/components/status-badge";
import type { OrderListRow } from "@/db/queries/order-views";
import { formatDateTime, formatMoney, orDash } from "@/lib/ui/format";

export function OrdersTable({ storeId, rows }: { storeId: number; rows: OrderListRow[] }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">Orders, newest first</caption>
        <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
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
        <tbody className="divide-y divide-slate-100">
          {rows.map((row) => (
            <tr key={row.id} data-order-id={row.id} className="hover:bg-slate-50">
              <th scope="row" className="whitespace-nowrap px-3 py-2 text-left font-medium">
                <Link
                  href={`/stores/${storeId}/orders/${row.id}`}
                  className="text-slate-900 underline decoration-slate-300 underline-offset-2 hover:decoration-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900"
                >
                  {row.orderNumber}
                </Link>
              </th>
              <td className="whitespace-nowrap px-3 py-2 text-slate-600">
                <time dateTime={row.createdAt.toISOString()}>{formatDateTime(row.createdAt)}</time>
              </td>
              <td className="max-w-[14rem] truncate px-3 py-2">
                <span dir="auto">{orDash(row.customerName)}</span>
              </td>
              <td className="whitespace-nowrap px-3 py-2" dir="ltr">
                {orDash(row.customerPhone)}
              </td>
              <td className="whitespace-nowrap px-3 py-2">
                <span dir="auto">{orDash(row.wilayaName)}</span>
              </td>
              <td className="whitespace-nowrap px-3 py-2 text-right tabular-nums">{formatMoney(row.total)}</td>
              <td className="px-3 py-2">
                <StatusBadge status={row.status} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
