import type { Metadata } from "next";
import { LinkWithStatus } from "@/components/link-with-status";
import { orDatabaseUnavailable } from "@/components/database-unavailable";
import { getUi } from "@/i18n/server";
import { storeHref } from "@/lib/sections";
import { requireStore } from "@/lib/tenancy";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getUi();
  return { title: t("Shell.signOutEverywhere") };
}
export const dynamic = "force-dynamic";
/** Work runs after the answer (the session's bookkeeping, lib/session.ts): a ceiling the host enforces, counted from the request's start. */
export const maxDuration = 60;

/**
 * The question before sign out everywhere (`POST /signout/everywhere` sends an unconfirmed press here): it ends every
 * session on every device, this one included, so it is asked once, with the store named. Only a browser holding the
 * store sees it; any other gets the store pages' 404. A plain form: it works without JavaScript.
 */
export default async function ConfirmSignOutEverywherePage(props: Parameters<typeof Confirm>[0]) {
  const { storeId } = await props.searchParams;
  const retry = `/signout/everywhere/confirm?${new URLSearchParams({ storeId: typeof storeId === "string" ? storeId : "" })}`;
  return orDatabaseUnavailable(() => Confirm(props), { retry, standalone: true });
}

async function Confirm({ searchParams }: { searchParams: Promise<{ storeId?: string | string[] }> }) {
  const { storeId: param } = await searchParams;
  const [{ storeId, install }, { t }] = await Promise.all([requireStore(typeof param === "string" ? param : ""), getUi()]);
  // First-strong isolation: an Arabic store name inside a French sentence keeps both in order.
  const name = `\u2068${install.storeName}\u2069`;
  return (
    <main className="mx-auto flex min-h-screen max-w-lg flex-col justify-center gap-4 px-6" data-confirm-sign-out-everywhere>
      <h1 className="text-2xl font-semibold">{t("Shell.signOutEverywhereConfirmTitle", { name })}</h1>
      <p id="sign-out-everywhere-help" className="text-slate-600">
        {t("Shell.signOutEverywhereHelp", { name })}
      </p>
      <form action="/signout/everywhere" method="post" className="flex flex-wrap gap-3">
        <input type="hidden" name="storeId" value={storeId} />
        <input type="hidden" name="confirmed" value="1" />
        <button
          type="submit"
          aria-describedby="sign-out-everywhere-help"
          className="inline-flex min-h-11 items-center rounded-md bg-red-700 px-4 py-2 text-sm font-medium text-white hover:bg-red-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-800"
        >
          {t("Shell.signOutEverywhereConfirm")}
        </button>
        <LinkWithStatus
          href={storeHref(storeId)}
          className="inline-flex min-h-11 items-center rounded-md border border-slate-300 px-4 py-2 text-sm font-medium hover:bg-white"
        >
          {t("Shell.signOutEverywhereCancel")}
        </LinkWithStatus>
      </form>
    </main>
  );
}
