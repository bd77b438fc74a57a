import type { Metadata } from "next";
import { SignOutForm } from "@/components/sign-out-form";
import { orDatabaseUnavailable } from "@/components/database-unavailable";
import { switchLocale } from "@/app/actions/locale";
import { LocaleSwitcher } from "@/components/locale-switcher";
import { sameScopes, ScopeChips, StoreCard } from "@/components/store-card";
import type { SessionInstall } from "@/db/queries/sessions";
import { mayCallPlatform } from "@/lib/installs/state";
import { getUi } from "@/i18n/server";
import { getDb } from "@/lib/database/app-database";
import { isClosedStore, lostStores, type LostAccess } from "@/lib/lost-access";
import { storeHref, storesHref } from "@/lib/sections";
import { currentSession, currentSessionId } from "@/lib/session";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getUi();
  return { title: t("Meta.stores") };
}
export const dynamic = "force-dynamic";
/** Work runs after the answer (the session's bookkeeping, lib/session.ts): a ceiling the host enforces, counted from the request's start. */
export const maxDuration = 60;

/** The permissions every connected store shares, listed once above the cards instead of on each; null when they differ. */
function sharedScopesOf(installs: SessionInstall[]): string[] | null {
  const connected = installs.filter((install) => mayCallPlatform(install.state));
  const first = connected[0];
  return first && first.scopes.length > 0 && connected.every((install) => sameScopes(install.scopes, first.scopes)) ? first.scopes : null;
}

/** Ids from `?installed=101,102`, kept only if they are stores of this session (nothing else is echoed). */
function installedNotice(param: string | string[] | undefined, installs: SessionInstall[]): SessionInstall[] {
  const raw = Array.isArray(param) ? param.join(",") : (param ?? "");
  const ids = new Set(raw.split(",").map((part) => Number(part)));
  return installs.filter((install) => ids.has(install.storeId));
}

export default async function StoresPage(props: Parameters<typeof Stores>[0]) {
  return orDatabaseUnavailable(() => Stores(props), { retry: storesHref(), standalone: true });
}

async function Stores({ searchParams }: { searchParams: Promise<{ installed?: string | string[] }> }) {
  const [{ installed }, session, { locale, t, format }, sessionId, db] = await Promise.all([
    searchParams,
    currentSession(),
    getUi(),
    currentSessionId(),
    getDb(),
  ]);
  const installs = session?.installs ?? [];
  const justInstalled = installedNotice(installed, installs);
  const lost = await lostStores(db, sessionId, installs.map((install) => install.storeId));
  const sharedScopes = sharedScopesOf(installs);

  return (
    <main className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
      <div className="mb-4 flex justify-end">
        <LocaleSwitcher action={switchLocale} locale={locale} t={t} />
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

      {lost.length > 0 ? <LostStores lost={lost} /> : null}

      {sharedScopes ? (
        <section aria-labelledby="shared-permissions" className="mt-6" data-shared-scopes>
          <h2 id="shared-permissions" className="mb-1.5 text-sm font-medium text-slate-700">
            {t("Stores.sharedPermissions")}
          </h2>
          <ScopeChips scopes={sharedScopes} t={t} />
        </section>
      ) : null}

      {installs.length > 0 ? (
        <ul className="mt-6 space-y-4" aria-label={t("Stores.list")}>
          {installs.map((install) => (
            <StoreCard key={install.storeId} install={install} t={t} list={format.list} sharedScopes={sharedScopes ?? undefined} />
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

/** The stores this browser held and lost, each with what happened and its one fix (lib/lost-access.ts). */
async function LostStores({ lost }: { lost: LostAccess[] }) {
  const { t, format } = await getUi();
  const reason = (store: LostAccess): string => {
    const when = store.at ? `\u2068${format.dateTimeWithZone(store.at)}\u2069` : "";
    if (store.reason === "uninstalled") return t("LostAccess.listUninstalled", { when });
    if (store.reason === "revoked") return t("LostAccess.listRevoked", { when });
    if (store.reason === "signed_out") return t("LostAccess.listSignedOut", { when });
    if (store.reason === "signed_out_everywhere") return t("LostAccess.listSignedOutEverywhere", { when });
    return t("LostAccess.listExpired");
  };
  return (
    <section aria-labelledby="lost-stores-title" className="mt-6 rounded-lg border border-amber-300 bg-amber-50 p-4" data-lost-stores>
      <h2 id="lost-stores-title" className="font-semibold text-amber-950">
        {t("LostAccess.listTitle")}
      </h2>
      <ul className="mt-2 divide-y divide-amber-200">
        {lost.map((store) => {
          const closed = isClosedStore(store.reason);
          const returnTo = new URLSearchParams({ return_to: storeHref(store.storeId) });
          return (
            <li key={store.storeId} className="flex flex-wrap items-center justify-between gap-2 py-2" data-lost-store={store.storeId}>
              <p className="min-w-0 text-sm text-amber-950">
                <span dir="auto" className="font-medium">
                  {store.storeName}
                </span>{" "}
                — {reason(store)}
              </p>
              <a
                href={`/install?${returnTo}`}
                className="inline-flex min-h-11 items-center rounded-md bg-white px-3 text-sm font-medium text-slate-900 ring-1 ring-slate-300 hover:bg-slate-50"
              >
                {closed ? t("LostAccess.reinstall") : t("LostAccess.signIn")}
              </a>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
