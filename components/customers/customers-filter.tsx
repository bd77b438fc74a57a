import { PhoneSearchField } from "@/components/forms/phone-search-field";
import type { Translate } from "@/i18n/translate";

/** A plain GET form: the phone lives in the URL (?phone=), so the search works without JavaScript and can be shared. */
export function CustomersFilter({ action, phone, t }: { action: string; phone: string | null; t: Translate }) {
  return (
    <form action={action} method="get" role="search" aria-label={t("Customers.search")} className="flex flex-wrap items-end gap-3">
      <PhoneSearchField id="customer-phone" label={t("Customers.phone")} hint={t("Customers.phoneHint")} phone={phone} />
      <div className="flex items-center gap-3 pb-5">
        <button type="submit" className="button-primary">
          {t("Customers.find")}
        </button>
        {phone ? (
          <a href={action} className="py-1.5 text-sm font-medium text-slate-700 underline underline-offset-2">
            {t("Customers.clear")}
          </a>
        ) : null}
      </div>
    </form>
  );
}
