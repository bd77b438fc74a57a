import type { Translate } from "@/i18n/translate";
import { ORDER_STATUSES, statusKey } from "@/lib/orders/status";

/** A plain GET form: the filters live in the URL (?status=, ?phone=), so they work without JavaScript and can be shared. */
export function OrdersFilters({ action, status, phone, t }: { action: string; status: string | null; phone: string | null; t: Translate }) {
  const control = "field-control";
  return (
    <form action={action} method="get" role="search" aria-label={t("Orders.filters")} className="flex flex-wrap items-end gap-3">
      <div className="flex min-w-0 flex-col gap-1">
        <label htmlFor="filter-status" className="text-sm font-medium text-slate-700">
          {t("Orders.status")}
        </label>
        <select id="filter-status" name="status" defaultValue={status ?? ""} className={control}>
          <option value="">{t("Orders.allStatuses")}</option>
          {ORDER_STATUSES.map((value) => (
            <option key={value} value={value}>
              {t(statusKey(value))}
            </option>
          ))}
        </select>
      </div>
      <div className="flex min-w-0 flex-col gap-1">
        <label htmlFor="filter-phone" className="text-sm font-medium text-slate-700">
          {t("Orders.phone")}
        </label>
        <input
          id="filter-phone"
          name="phone"
          type="tel"
          inputMode="tel"
          autoComplete="off"
          defaultValue={phone ?? ""}
          aria-describedby="filter-phone-hint"
          dir="ltr"
          className={`w-44 max-w-full text-start ${control}`}
        />
        <span id="filter-phone-hint" className="text-xs text-slate-600">
          {t("Orders.phoneHint")}
        </span>
      </div>
      <div className="flex items-center gap-3 pb-5">
        <button
          type="submit"
          className="button-primary"
        >
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
