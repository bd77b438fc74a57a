import { LinkWithStatus } from "@/components/link-with-status";
import { getUi } from "@/i18n/server";
import { isClosedStore, type LostAccess } from "@/lib/lost-access";
import { storesHref } from "@/lib/sections";

/**
 * The page a browser meets on a store it can no longer open, instead of a bare 404: what happened, to which store,
 * when, and the one fix (install again, or sign in and come back to `returnTo`).
 */
export async function LostAccessPanel({ lost, returnTo }: { lost: LostAccess; returnTo: string | null }) {
  const { t, format } = await getUi();
  // First-strong isolation: an Arabic store name inside a French sentence keeps both in order.
  const name = `\u2068${lost.storeName}\u2069`;
  const when = lost.at ? `\u2068${format.dateTimeWithZone(lost.at)}\u2069` : "";
  const closed = isClosedStore(lost.reason);
  const title =
    lost.reason === "uninstalled"
      ? t("LostAccess.uninstalledTitle", { name })
      : lost.reason === "revoked"
        ? t("LostAccess.revokedTitle", { name })
        : t("LostAccess.sessionEndedTitle");
  const body =
    lost.reason === "uninstalled"
      ? t("LostAccess.uninstalledBody", { when })
      : lost.reason === "revoked"
        ? t("LostAccess.revokedBody", { when })
        : lost.reason === "signed_out"
          ? t("LostAccess.signedOutBody", { name, when })
          : lost.reason === "signed_out_everywhere"
            ? t("LostAccess.signedOutEverywhereBody", { name, when })
            : t("LostAccess.expiredBody", { name });
  // A plain link: /install starts a fresh attempt and must never be prefetched.
  const href = returnTo ? `/install?${new URLSearchParams({ return_to: returnTo })}` : "/install";
  return (
    <main className="mx-auto flex min-h-screen max-w-lg flex-col justify-center gap-4 px-6" data-lost-access={lost.reason}>
      <h1 className="text-2xl font-semibold">{title}</h1>
      <p id="lost-access-body" className="text-slate-600">
        {body}
      </p>
      <div className="flex flex-wrap gap-3">
        <a
          href={href}
          aria-describedby="lost-access-body"
          className="inline-flex min-h-11 items-center rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        >
          {closed ? t("LostAccess.reinstall") : t("LostAccess.signIn")}
        </a>
        <LinkWithStatus
          href={storesHref()}
          className="inline-flex min-h-11 items-center rounded-md border border-slate-300 px-4 py-2 text-sm font-medium hover:bg-white"
        >
          {t("LostAccess.yourStores")}
        </LinkWithStatus>
      </div>
    </main>
  );
}
