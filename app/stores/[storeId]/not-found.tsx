import { AppLink } from "@/components/app-link";
import { getUi } from "@/i18n/server";

/** A category or page that is not in this store (or never existed): the same answer, so ids cannot be probed. */
export default async function NotFound() {
  const { t } = await getUi();
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-6 text-center shadow-sm">
      <h1 className="text-lg font-semibold">{t("NotFound.storeTitle")}</h1>
      <p className="mt-2 text-slate-600">{t("NotFound.storeBody")}</p>
      <AppLink href="/stores" className="mt-4 inline-block text-sm font-medium underline underline-offset-2">
        {t("NotFound.backToStores")}
      </AppLink>
    </section>
  );
}
