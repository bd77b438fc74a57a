import type { OrderItem } from "@/db/schema";
import type { Translate } from "@/i18n/translate";
import { orDash, type Formats } from "@/i18n/format";

/**
 * An order's lines. On a phone each line is a block (name, then SKU, price × quantity and total on one wrapped
 * line) rather than five columns, so nothing scrolls sideways at 320 px; from sm up, a table.
 */
export function OrderItemsTable({ items, t, format }: { items: OrderItem[]; t: Translate; format: Formats }) {
  if (items.length === 0) {
    return <p className="text-sm text-slate-600">{t("Order.noItems")}</p>;
  }
  const head = "px-2 py-2 text-xs font-semibold text-slate-600";
  return (
    <table className="block w-full text-sm sm:table">
      <thead className="sr-only sm:not-sr-only sm:table-header-group">
        <tr>
          <th scope="col" className={`${head} text-start`}>{t("Order.product")}</th>
          <th scope="col" className={`${head} text-start`}>{t("Order.sku")}</th>
          <th scope="col" className={`${head} text-end`}>{t("Order.price")}</th>
          <th scope="col" className={`${head} text-end`}>{t("Order.quantity")}</th>
          <th scope="col" className={`${head} text-end`}>{t("Order.lineTotal")}</th>
        </tr>
      </thead>
      <tbody className="block divide-y divide-slate-100 sm:table-row-group">
        {items.map((item) => (
          <tr key={item.position} className="flex flex-wrap gap-x-3 py-2 sm:table-row">
            <td className="w-full min-w-0 break-words sm:w-auto sm:px-2 sm:py-2">
              {/* The block follows the page's direction; only the name inside takes its own (a block with dir="auto"
                  would align a French name to the left edge of an Arabic page). */}
              <span className="block font-medium" data-item-name>
                <bdi dir="auto">{orDash(item.productName)}</bdi>
              </span>
              {item.variantName ? (
                <span className="block text-xs text-slate-600">
                  <bdi dir="auto">{item.variantName}</bdi>
                </span>
              ) : null}
            </td>
            <td className="text-slate-600 sm:px-2 sm:py-2">
              <span className="sr-only sm:hidden">{t("Order.sku")} </span>
              <bdi dir="ltr" className="break-all">
                {orDash(item.sku)}
              </bdi>
            </td>
            <td className="whitespace-nowrap tabular-nums sm:px-2 sm:py-2 sm:text-end">{format.money(item.price)}</td>
            <td className="tabular-nums sm:px-2 sm:py-2 sm:text-end">
              <span aria-hidden="true" className="sm:hidden">
                ×{" "}
              </span>
              <span className="sr-only sm:hidden">{t("Order.quantity")} </span>
              {item.quantity === null ? "—" : format.count(item.quantity)}
            </td>
            <td className="ms-auto whitespace-nowrap font-medium tabular-nums sm:px-2 sm:py-2 sm:text-end sm:font-normal">
              <span className="sr-only sm:hidden">{t("Order.lineTotal")} </span>
              {format.money(item.total)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
