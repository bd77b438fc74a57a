import type { Translate } from "@/i18n/translate";
import type { Formats } from "@/i18n/format";
import type { CustomerRow } from "@/lib/customers/customers-page";
import { LinkWithStatus } from "@/components/link-with-status";
import { telHref } from "@/lib/phone";
import { storeHref } from "@/lib/sections";

/**
 * The customers as cards (a card reads on a 320 px phone where a five-column table would scroll sideways): name,
 * phone to call, and their history with the store, returned parcels marked, since a merchant paying the courier
 * both ways looks at those first; then the link to their orders.
 */
export function CustomersList({ storeId, rows, t, format }: { storeId: number; rows: CustomerRow[]; t: Translate; format: Formats }) {
  return (
    <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3" data-list="customers">
      {rows.map((customer, index) => {
        const name = customer.name ?? (customer.id ? t("Customers.unnamed", { id: customer.id }) : (customer.phone ?? t("Customers.nameless")));
        const tel = telHref(customer.phone);
        return (
          // A customer may come without an id (the platform documents none): its place on the page keys it then.
          <li key={customer.id ?? `at-${index}`} data-customer-id={customer.id ?? undefined} className="flex min-w-0 flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
            <div className="min-w-0">
              <h2 dir="auto" className="break-words text-base font-semibold">
                {name}
              </h2>
              {customer.phone ? (
                tel ? (
                  <a href={tel} dir="ltr" className="text-sm text-slate-700 underline underline-offset-2" data-phone>
                    {customer.phone}
                  </a>
                ) : (
                  <span dir="ltr" className="text-sm text-slate-700" data-phone>
                    {customer.phone}
                  </span>
                )
              ) : (
                <span className="text-sm text-slate-600">{t("Customers.noPhone")}</span>
              )}
            </div>
            <dl className="grid grid-cols-3 gap-2 text-center text-sm">
              <div className="rounded-md bg-slate-50 px-2 py-1.5" data-count="orders">
                <dt className="text-xs text-slate-600">{t("Customers.orders")}</dt>
                <dd className="font-semibold">{format.count(customer.history.orders)}</dd>
              </div>
              <div className="rounded-md bg-slate-50 px-2 py-1.5" data-count="delivered">
                <dt className="text-xs text-slate-600">{t("Customers.delivered")}</dt>
                <dd className="font-semibold">{format.count(customer.history.delivered)}</dd>
              </div>
              <div
                className={customer.history.returned > 0 ? "rounded-md bg-amber-50 px-2 py-1.5 ring-1 ring-amber-300" : "rounded-md bg-slate-50 px-2 py-1.5"}
                data-count="returned"
              >
                <dt className="text-xs text-slate-600">{t("Customers.returned")}</dt>
                <dd className="font-semibold">{format.count(customer.history.returned)}</dd>
              </div>
            </dl>
            {customer.phone ? (
              <LinkWithStatus
                href={storeHref(storeId, "orders", { phone: customer.phone })}
                aria-label={t("Customers.seeOrdersOf", { name })}
                className="self-start text-sm font-medium underline underline-offset-2"
              >
                {t("Customers.seeOrders")}
              </LinkWithStatus>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
