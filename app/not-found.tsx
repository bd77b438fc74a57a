import type { Metadata } from "next";
import { AppLink } from "@/components/app-link";
import { getUi } from "@/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getUi();
  return { title: t("Meta.notFound") };
}

export default async function NotFound() {
  const { t } = await getUi();
  return (
    <main className="mx-auto flex min-h-screen max-w-lg flex-col justify-center gap-4 px-6">
      <p className="text-sm font-semibold text-slate-600">404</p>
      <h1 className="text-2xl font-semibold">{t("NotFound.title")}</h1>
      <p className="text-slate-600">{t("NotFound.body")}</p>
      <div className="flex flex-wrap gap-3">
        <AppLink href="/stores" className="rounded-md bg-slate-900 px-4 py-2 text-sm font-medium text-white hover:bg-slate-700">
          {t("NotFound.yourStores")}
        </AppLink>
        {/* A plain link: /install is a route handler that starts a fresh attempt (as on the start page). */}
        <a href="/install" className="rounded-md border border-slate-300 px-4 py-2 text-sm font-medium hover:bg-white">
          {t("NotFound.install")}
        </a>
      </div>
    </main>
  );
}
