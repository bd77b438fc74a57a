import type { OrderItem } from "@/db/schema";
import { formatMoney, orDash } from "@/lib/ui/format";

export function OrderItemsTable({ items }: { items: OrderItem[] }) {
  if (items.length === 0) {
    return <p className="text-sm text-slate-600">The platform has not sent this order&apos;s items yet.</p>;
  }
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full text-sm">
        <thead className="text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
          <tr>
            <th scope="col" className="py-2 pr-3">Product</th>
            <th scope="col" className="px-3 py-2">SKU</th>
            <th scope="col" className="px-3 py-2 text-right">Price</th>
            <th scope="col" className="px-3 py-2 text-right">Qty</th>
            <th scope="col" className="py-2 pl-3 text-right">Total</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {items.map((item) => (
            <tr key={item.position}>
              <td className="py-2 pr-3">
                <span dir="auto" className="block font-medium">
                  {orDash(item.productName)}
                </span>
                {item.variantName ? (
                  <span dir="auto" className="block text-xs text-slate-500">
                    {item.variantName}
                  </span>
                ) : null}
              </td>
              <td className="whitespace-nowrap px-3 py-2 text-slate-600" dir="ltr">
                {orDash(item.sku)}
              </td>
              <td className="whitespace-nowrap px-3 py-2 text-right tabular-nums">{formatMoney(item.price)}</td>
              <td className="px-3 py-2 text-right tabular-nums">{item.quantity ?? "—"}</td>
              <td className="whitespace-nowrap py-2 pl-3 text-right tabular-nums">{formatMoney(item.total)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
