import { sectionMetadata, storePage } from "../_components/store-page";

export const generateMetadata = sectionMetadata("customers");

/**
 * Customers of a store, inside the frame every store page shares (tenancy guard, database outage, heading, the read-only notice of a store the app no longer reaches, the error panel of a PlatformError).
 * Read the platform with `interactivePlatform(storeId).<resource>` or the app's own database with a named query
 * from db/queries/, and build links with storeHref (README, "Add a store section").
 */
export default storePage(
  "customers",
  async ({ ui: { t }, heading }) => (
    <div className="space-y-4">
      <div>
        {heading}
        <p className="mt-1 text-sm text-slate-600">{t("Customers.intro")}</p>
      </div>
      <section className="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center">
        <h2 className="text-base font-semibold">{t("Customers.emptyTitle")}</h2>
        <p className="mx-auto mt-1 max-w-prose text-sm text-slate-600">{t("Customers.emptyBody")}</p>
      </section>
    </div>
  ),
  { readOnly: "Customers.readOnly", loadFailed: "Customers.loadFailed" },
);
