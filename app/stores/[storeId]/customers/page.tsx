import { LinkWithStatus } from "@/components/link-with-status";
import { CustomersFilter } from "@/components/customers/customers-filter";
import { CustomersList } from "@/components/customers/customers-list";
import { getDb } from "@/lib/database/app-database";
import { customersHref, loadCustomersPage, parseCustomersQuery } from "@/lib/customers/customers-page";
import { interactivePlatform } from "@/lib/platform";
import { sectionMetadata, storePage } from "../_components/store-page";

export const generateMetadata = sectionMetadata("customers");

/** An arrow that points along the reading direction: mirrored in right-to-left pages. */
function Arrow({ back }: { back?: boolean }) {
  return (
    <span aria-hidden="true" className="inline-block rtl:-scale-x-100">
      {back ? "←" : "→"}
    </span>
  );
}

/**
 * The store's customers from the platform, newest first, with the platform's phone filter and cursor pages, each
 * with their orders, delivered and returned parcels from the app's own orders, and a link to those orders. The frame
 * shows a disconnected store's read-only notice and explains a platform refusal (a stale cursor included).
 */
export default storePage(
  "customers",
  async ({ storeId, searchParams, ui: { t, format }, heading }) => {
    const query = parseCustomersQuery(searchParams);
    const page = await loadCustomersPage(interactivePlatform(storeId), await getDb(), storeId, query);
    const baseHref = customersHref(storeId, {});
    return (
      <div className="space-y-4">
        <div>
          {heading}
          <p className="mt-1 text-sm text-slate-600">{t("Customers.intro")}</p>
        </div>
        <CustomersFilter action={baseHref} phone={query.phone} t={t} />
        {query.phoneRefused ? (
          <p role="status" className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-slate-800">
            {t("Customers.phoneRefused")}
          </p>
        ) : null}
        {page.rows.length === 0 && !query.cursor ? (
          <section className="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center" data-empty={query.phone ? "no-match" : "none"}>
            <h2 className="text-base font-semibold">{query.phone ? t("Customers.noMatchTitle") : t("Customers.emptyTitle")}</h2>
            <p className="mx-auto mt-1 max-w-prose text-sm text-slate-600">{query.phone ? t("Customers.noMatchBody") : t("Customers.emptyBody")}</p>
            {query.phone ? (
              <a href={baseHref} className="mt-3 inline-block text-sm font-medium underline underline-offset-2">
                {t("Customers.clear")}
              </a>
            ) : null}
          </section>
        ) : (
          <div className="space-y-4">
            <CustomersList storeId={storeId} rows={page.rows} t={t} format={format} />
            <nav aria-label={t("Customers.pages")} className="flex flex-wrap items-center justify-between gap-3 text-sm">
              {query.cursor ? (
                <LinkWithStatus href={customersHref(storeId, { phone: query.phone })} className="font-medium underline underline-offset-2">
                  <Arrow back /> {t("Customers.newest")}
                </LinkWithStatus>
              ) : (
                <span />
              )}
              {page.nextCursor ? (
                <LinkWithStatus href={customersHref(storeId, { phone: query.phone, cursor: page.nextCursor })} rel="next" className="button-secondary">
                  {t("Customers.older")} <Arrow />
                </LinkWithStatus>
              ) : (
                <span className="text-slate-600">{query.cursor ? t("Customers.end") : ""}</span>
              )}
            </nav>
          </div>
        )}
      </div>
    );
  },
  { readOnly: "Customers.readOnly", loadFailed: "Customers.loadFailed" },
);
