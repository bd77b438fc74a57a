import type { Metadata } from "next";
import { LinkWithStatus } from "@/components/link-with-status";
import { switchLocale } from "@/app/actions/locale";
import { LocaleSwitcher } from "@/components/locale-switcher";
import { getUi } from "@/i18n/server";
import { describeFailure } from "@/lib/oauth/failure-reasons";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getUi();
  return { title: t("Meta.installFailed") };
}

export default async function InstallFailedPage({
  searchParams,
}: {
  searchParams: Promise<{ reason?: string | string[]; minutes?: string | string[] }>;
}) {
  const [{ reason, minutes }, { locale, t }] = await Promise.all([searchParams, getUi()]);
  const failure = describeFailure(Array.isArray(reason) ? reason[0] : reason, Array.isArray(minutes) ? minutes[0] : minutes);
  const declined = failure.reason === "access_denied";
  return (
    <main className="mx-auto flex min-h-screen max-w-xl flex-col justify-center gap-6 px-6 py-16">
      <div className="flex justify-end">
        <LocaleSwitcher action={switchLocale} locale={locale} t={t} />
      </div>
      <div
        className={`rounded-lg border p-6 ${declined ? "border-slate-200 bg-white" : "border-amber-300 bg-amber-50"}`}
        data-reason={failure.reason ?? "unknown"}
      >
        <h1 className="text-2xl font-bold text-slate-900">{t(failure.titleKey)}</h1>
        <p className="mt-3 text-slate-700">{t(failure.detailKey, { minutes: failure.minutes })}</p>
      </div>
      <div className="flex flex-wrap gap-4">
        <a
          href="/install"
          className="rounded-md bg-indigo-600 px-5 py-3 font-semibold text-white shadow-sm hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        >
          {t("InstallFailed.startAgain")}
        </a>
        <LinkWithStatus
          href="/"
          className="rounded-md px-5 py-3 font-semibold text-slate-700 ring-1 ring-slate-300 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        >
          {t("InstallFailed.backHome")}
        </LinkWithStatus>
      </div>
    </main>
  );
}
