import type { Metadata } from "next";
import { SignOutForm } from "@/components/sign-out-form";
import { orDatabaseUnavailable } from "@/components/database-unavailable";
import { LocaleSwitcher } from "@/components/locale-switcher";
import { StoreCard } from "@/components/store-card";
import type { Install } from "@/db/schema";
import { getUi } from "@/i18n/server";
import { currentSession } from "@/lib/session";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getUi();
  return { title: t("Meta.stores") };
}
export const dynamic = "force-dynamic";

/** Ids from `?installed=101,102`, kept only if they are stores of this session (nothing else is echoed). */
function installedNotice(param: string | string[] | undefined, installs: Install[]): Install[] {
  const raw = Array.isArray(param) ? param.join(",") : (param ?? "");
  const ids = new Set(raw.split(",").map((part) => Number(part)));
  return installs.filter((install) => ids.has(install.storeId));
}

export default async function StoresPage(props: Parameters<typeof Stores>[0]) {
  return orDatabaseUnavailable(() => Stores(props), { retry: "/stores", standalone: true });
}

async function Stores({ searchParams }: { searchParams: Promise<{ installed?: string | string[] }> }) {
  const [{ installed }, session, { t, format }] = await Promise.all([searchParams, currentSession(), getUi()]);
  const installs = session?.installs ?? [];
  const justInstalled = installedNotice(installed, installs);

  return (
    <main className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
      <div className="mb-4 flex justify-end">
        <LocaleSwitcher />
      </div>
      <header className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-bold text-slate-900">{t("Stores.title")}</h1>
        <div className="flex flex-wrap items-center gap-3">
          <a
            href="/install"
            className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
          >
            {t("Stores.addStores")}
          </a>
          {/* Nothing to end without a session's stores: a signed-out visitor gets no Sign out. */}
          {installs.length > 0 ? (
            <SignOutForm
              label={t("Shell.signOut")}
              className="rounded-md px-4 py-2 text-sm font-semibold text-slate-700 ring-1 ring-slate-300 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
            />
          ) : null}
        </div>
      </header>

      {justInstalled.length > 0 && (
        <div role="status" className="mt-6 rounded-lg border border-emerald-300 bg-emerald-50 p-4 text-emerald-900">
          <p className="font-semibold">
            {t("Stores.installed", { count: justInstalled.length, names: format.list(justInstalled.map((install) => install.storeName)) })}
          </p>
          <p className="mt-1 text-sm">{t("Stores.installedDetail")}</p>
        </div>
      )}

      {installs.length > 0 ? (
        <ul className="mt-6 space-y-4" aria-label={t("Stores.list")}>
          {installs.map((install) => (
            <StoreCard key={install.storeId} install={install} t={t} />
          ))}
        </ul>
      ) : (
        <div className="mt-6 rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center">
          <p className="font-semibold text-slate-900">{t("Stores.emptyTitle")}</p>
          <p className="mt-1 text-slate-600">{t("Stores.emptyBody")}</p>
          <a
            href="/install"
            className="mt-4 inline-block rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white hover:bg-indigo-500"
          >
            {t("Stores.install")}
          </a>
        </div>
      )}
    </main>
  );
}
