import { LinkWithStatus } from "@/components/link-with-status";
import { orDatabaseUnavailable } from "@/components/database-unavailable";
import { switchLocale } from "@/app/actions/locale";
import { LocaleSwitcher } from "@/components/locale-switcher";
import { getUi } from "@/i18n/server";
import { storesHref } from "@/lib/sections";
import { currentSession } from "@/lib/session";

export const dynamic = "force-dynamic";
/** Work runs after the answer (the session's bookkeeping, lib/session.ts): a ceiling the host enforces, counted from the request's start. */
export const maxDuration = 60;

export default async function HomePage(props: Parameters<typeof Home>[0]) {
  return orDatabaseUnavailable(() => Home(props), { retry: "/", standalone: true });
}

async function Home({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const [session, { locale, t }, query] = await Promise.all([currentSession(), getUi(), searchParams]);
  const signedOutEverywhere = query.signed_out === "everywhere";
  const storeCount = session?.installs.length ?? 0;
  return (
    <main className="mx-auto flex min-h-screen max-w-2xl flex-col justify-center gap-8 px-6 py-16">
      <div className="flex justify-end">
        <LocaleSwitcher action={switchLocale} locale={locale} t={t} />
      </div>
      {signedOutEverywhere && (
        <p role="status" className="rounded-md border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-900">
          {t("Home.signedOutEverywhere")}
        </p>
      )}
      <div className="space-y-3">
        <p className="text-sm font-semibold tracking-wide text-indigo-700 uppercase">{t("Meta.appName")}</p>
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{t("Home.title")}</h1>
        <p className="text-lg text-slate-600">{t("Home.intro")}</p>
      </div>
      <div className="flex flex-wrap items-center gap-4">
        {/* A plain link: /install is a route handler that starts a fresh attempt, never to be prefetched. */}
        <a
          href="/install"
          className="rounded-md bg-indigo-600 px-5 py-3 font-semibold text-white shadow-sm hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        >
          {t("Home.install")}
        </a>
        {storeCount === 0 && (
          // The platform has no login for apps: the consent screen is the proof of who the merchant is.
          <a
            href="/install"
            aria-describedby="sign-in-hint"
            className="rounded-md px-5 py-3 font-semibold text-indigo-700 ring-1 ring-indigo-200 hover:bg-indigo-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
          >
            {t("Home.signIn")}
          </a>
        )}
        {storeCount > 0 && (
          <LinkWithStatus
            href={storesHref()}
            className="rounded-md px-5 py-3 font-semibold text-indigo-700 ring-1 ring-indigo-200 hover:bg-indigo-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
          >
            {t("Home.open", { count: storeCount })}
          </LinkWithStatus>
        )}
      </div>
      {storeCount === 0 && (
        <p id="sign-in-hint" className="text-sm text-slate-600">
          {t("Home.signInHint")}
        </p>
      )}
    </main>
  );
}
