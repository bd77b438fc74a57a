import { LinkWithStatus } from "@/components/link-with-status";
import { orDatabaseUnavailable } from "@/components/database-unavailable";
import { ClientMessages } from "@/components/i18n/client-messages";
import { InstallBanner } from "@/components/install-banner";
import { ScopeGapBanner } from "@/components/scope-gap";
import { switchLocale } from "@/app/actions/locale";
import { LocaleSwitcher } from "@/components/locale-switcher";
import { SignOutForm } from "@/components/sign-out-form";
import { StoreNav } from "@/components/store-nav";
import { StoreSwitcher } from "@/components/store-switcher";
import { clientMessages, getUi } from "@/i18n/server";
import { isSectionLocked, scopeGap } from "@/lib/installs/scopes";
import { mayCallPlatform } from "@/lib/installs/state";
import { SECTIONS, storeHref, storesHref } from "@/lib/sections";
import { currentSession } from "@/lib/session";
import { requireStore } from "@/lib/tenancy";
import { ImportProgress } from "./_components/import-progress";
import { SHELL_CLIENT_KEYS } from "./client-keys";

/**
 * Every store page, and the actions posted to it (the import's retry among them), works after its answer: the
 * session's bookkeeping and, with JOBS_WORKER=requests, the ask for the job drain (lib/jobs/app.ts), which drains
 * in the request itself when CRON_SECRET is unset. Pages inherit a layout's maxDuration; the drain's 40 s of work and
 * 10 s of hand-back fit in it (lib/jobs/request-driven.ts DRAIN_MAX_DURATION_SECONDS).
 */
export const maxDuration = 60;

/** The store's shell, or, when the database is not answering, that message alone (the shell needs the store). */
export default async function StoreLayout({
  children,
  params,
}: {
  children: React.ReactNode;
  params: Promise<{ storeId: string }>;
}) {
  const { storeId } = await params;
  return orDatabaseUnavailable(() => StoreShell({ children, storeId }), {
    retry: storeHref(storeId),
    standalone: true,
  });
}

async function StoreShell({ children, storeId }: { children: React.ReactNode; storeId: string }) {
  const [access, session, { locale, t, format }, messages] = await Promise.all([
    requireStore(storeId),
    currentSession(),
    getUi(),
    clientMessages(SHELL_CLIENT_KEYS),
  ]);
  const installs = session?.installs ?? [];
  const stores = installs.map((install) => ({ storeId: install.storeId, storeName: install.storeName, state: install.state }));
  const current = { storeId: access.storeId, storeName: access.install.storeName, state: access.install.state };
  // The section links, translated here: the navigation is a client component, and words made on the server need no
  // message handed to the browser.
  const granted = access.install.scopes;
  const links = SECTIONS.map((section) => ({
    href: storeHref(access.storeId, section.slug),
    label: t(section.label),
    exact: section.segment === "",
    locked: isSectionLocked(section.slug, granted) ? t("ScopeGap.lockedMark") : undefined,
  }));
  // While the sync's scope is missing the import cannot run: the banner says why, not a failed import and its retry.
  const syncBlocked = scopeGap(granted).syncBlocked;

  return (
    <ClientMessages messages={messages}>
      <div className="min-h-screen">
        <a
          href="#main"
          className="skip-link"
        >
          {t("Shell.skipToContent")}
        </a>
        <header className="border-b border-slate-200 bg-white">
          <div className="shell-bar">
            <LinkWithStatus href={storesHref()} className="text-sm font-semibold text-slate-900">
              {t("Shell.appName")}
            </LinkWithStatus>
            <StoreSwitcher current={current} stores={stores} t={t} />
            <StoreNav label={t("Shell.sections")} links={links} />
            <div className="ms-auto flex flex-wrap items-center gap-2">
              <LocaleSwitcher action={switchLocale} locale={locale} t={t} />
              <SignOutForm
                label={t("Shell.signOut")}
                className="button-quiet"
              />
            </div>
          </div>
        </header>
        <main id="main" className="mx-auto max-w-6xl space-y-4 px-4 py-6">
          <InstallBanner state={access.install.state} storeName={access.install.storeName} t={t} />
          {mayCallPlatform(access.install.state) ? (
            <ScopeGapBanner storeId={access.storeId} storeName={access.install.storeName} granted={granted} t={t} format={format} />
          ) : null}
          <ImportProgress storeId={access.storeId} row={syncBlocked ? null : (session?.backfills.get(access.storeId) ?? null)} t={t} />
          {children}
        </main>
        <footer className="shell-footer">
          {/* A lost phone, a shared computer: ends this store's sessions on every device (app/signout/everywhere). */}
          <form action="/signout/everywhere" method="post">
            <input type="hidden" name="storeId" value={access.storeId} />
            <p id="sign-out-everywhere-help">
              {/* First-strong isolation: an Arabic store name inside a French sentence keeps both in order. */}
              {t("Shell.signOutEverywhereHelp", { name: `\u2068${access.install.storeName}\u2069` })}
            </p>
            <button
              type="submit"
              aria-describedby="sign-out-everywhere-help"
              className="button-danger"
            >
              {t("Shell.signOutEverywhere")}
            </button>
          </form>
        </footer>
      </div>
    </ClientMessages>
  );
}
