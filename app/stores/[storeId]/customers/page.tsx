import { interactivePlatform } from "@/lib/platform";
import { storeHref } from "@/lib/sections";
import { sectionMetadata, storePage } from "../_components/store-page";

export const generateMetadata = sectionMetadata("customers");

const PAGE_SIZE = 10;

function first(value: string | string[] | undefined): string | undefined {
  return (Array.isArray(value) ? value[0] : value)?.trim() || undefined;
}

/** The store's customers from the platform, newest first, a page at a time (`?cursor=`). */
export default storePage(
  "customers",
  async ({ storeId, searchParams, ui: { t }, heading }) => {
    const cursor = first(searchParams.cursor);
    const page = await interactivePlatform(storeId).customers.list({ cursor, limit: PAGE_SIZE });
    return (
      <div className="space-y-4">
        {heading}
        {page.items.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center text-sm text-slate-600">{t("Customers.empty")}</p>
        ) : (
          <table className="w-full rounded-lg border border-slate-200 bg-white text-sm">
            <thead>
              <tr className="text-start text-slate-600">
                <th scope="col" className="px-3 py-2 text-start">{t("Customers.name")}</th>
                <th scope="col" className="px-3 py-2 text-start">{t("Customers.phone")}</th>
                <th scope="col" className="px-3 py-2 text-start">{t("Customers.email")}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {page.items.map((customer) => (
                <tr key={customer.id}>
                  <td className="px-3 py-2" dir="auto">{customer.name ?? "—"}</td>
                  <td className="px-3 py-2"><bdi dir="ltr">{customer.phone ?? "—"}</bdi></td>
                  <td className="px-3 py-2 break-all"><bdi dir="ltr">{customer.email ?? "—"}</bdi></td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <nav aria-label={t("Customers.pages")} className="flex justify-between text-sm">
          {cursor ? <a href={storeHref(storeId, "customers")} className="underline">{t("Customers.newest")}</a> : <span />}
          {page.nextCursor ? (
            <a href={storeHref(storeId, "customers", { cursor: page.nextCursor })} rel="next" className="underline">
              {t("Customers.older")}
            </a>
          ) : null}
        </nav>
      </div>
    );
  },
  { readOnly: "Customers.readOnly", loadFailed: "Customers.loadFailed" },
);
