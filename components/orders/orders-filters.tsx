import { PhoneSearchField } from "@/components/forms/phone-search-field";
import type { Translate } from "@/i18n/translate";
import { ORDER_STATUSES, statusKey } from "@/lib/orders/status";

/** A plain GET form: the filters live in the URL (?status=, ?phone=), so they work without JavaScript and can be shared. */
export function OrdersFilters({ action, status, phone, t }: { action: string; status: string | null; phone: string | null; t: Translate }) {
  return (
    <form action={action} method="get" role="search" aria-label={t("Orders.filters")} className="flex flex-wrap items-end gap-3">
      <div className="flex min-w-0 flex-col gap-1">
        <label htmlFor="filter-status" className="text-sm font-medium text-slate-700">
          {t("Orders.status")}
        </label>
        <select id="filter-status" name="status" defaultValue={status ?? ""} className="field-control">
          <option value="">{t("Orders.allStatuses")}</option>
          {ORDER_STATUSES.map((value) => (
            <option key={value} value={value}>
              {t(statusKey(value))}
            </option>
          ))}
        </select>
      </div>
      <PhoneSearchField id="filter-phone" label={t("Orders.phone")} hint={t("Orders.phoneHint")} phone={phone} />
      <div className="flex items-center gap-3 pb-5">
        <button type="submit" className="button-primary">
          {t("Orders.apply")}
        </button>
        {status || phone ? (
          <a href={action} className="py-1.5 text-sm font-medium text-slate-700 underline underline-offset-2">
            {t("Orders.clear")}
          </a>
        ) : null}
      </div>
    </form>
  );
}
