import type { Metadata } from "next";
import { headers } from "next/headers";
import { ForThisPathOnly } from "@/components/client-navigation";
import { LinkWithStatus } from "@/components/link-with-status";
import { LostAccessPanel } from "@/components/lost-access-panel";
import { getUi, type Ui } from "@/i18n/server";
import { safeReturnPath } from "@/lib/oauth/return-path";
import { REQUEST_PATH_HEADER } from "@/lib/http/request-path";
import { log } from "@/lib/log";
import { lostAccess } from "@/lib/lost-access";
import { storeIdOfPath, storesHref } from "@/lib/sections";
import { heldStore } from "@/lib/tenancy";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getUi();
  return { title: t("Meta.notFound") };
}

/**
 * What a browser meets on a store URL it may not open: the tenancy guard answers 404 so ids cannot be probed. The
 * browser that held the store is told why instead (lib/lost-access.ts).
 */
export default async function NotFound() {
  const [{ t }, requestHeaders] = await Promise.all([getUi(), headers()]);
  const path = requestHeaders.get(REQUEST_PATH_HEADER);
  const pathname = path?.split("?")[0];
  const storeId = storeIdOfPath(path);
  if (!pathname) return notFoundAnswer(t, path, storeId);
  // Next renders this page with every page, and the browser keeps it for later navigations: it is bound to its own
  // path, and on another one the page loads afresh (ForThisPathOnly). On a store the guard lets through, no page of
  // this request can answer with it (a path no store page serves is app/stores/[storeId]/[...unknown]'s, answered by
  // the store's own not-found page), so only that later navigation could show it: nothing is written for it then,
  // and every store page's payload is spared the 404's answer.
  // A session that cannot be read holds nothing here: the answer is written, and says what it can (below).
  const held = storeId !== null && (await heldStore(String(storeId)).catch(() => null)) !== null;
  const answer = held ? null : await notFoundAnswer(t, path, storeId);
  return (
    <ForThisPathOnly path={pathname} checking={t("NotFound.checking")} missing={t("NotFound.title")}>
      {answer}
    </ForThisPathOnly>
  );
}

/** `storeId`: the store `path` opens, if any (storeIdOfPath). */
async function notFoundAnswer(t: Ui["t"], path: string | null, storeId: number | null) {
  // Back to this very page after signing in, when it is a store page (lib/oauth/return-path.ts checks it).
  const returnTo = safeReturnPath(path);
  // A store this very browser held: say what happened to it. Any other browser reads the 404 below.
  // An answer about the store is a kindness, not a requirement: if it cannot be had, the plain 404 stands.
  const lost = storeId
    ? await lostAccess(String(storeId)).catch((error: unknown) => {
        log.warn("lost-access lookup failed", { error });
        return null;
      })
    : null;
  if (lost) return <LostAccessPanel lost={lost} returnTo={returnTo} />;
  const signInHref = returnTo ? `/install?${new URLSearchParams({ return_to: returnTo })}` : "/install";
  return (
    <main className="mx-auto flex min-h-screen max-w-lg flex-col justify-center gap-4 px-6">
      <p className="text-sm font-semibold text-slate-600">404</p>
      <h1 className="text-2xl font-semibold">{t("NotFound.title")}</h1>
      <p className="text-slate-600">{t("NotFound.body")}</p>
      <p id="sign-in-hint" className="text-slate-600">
        {t("NotFound.signInHint")}
      </p>
      <div className="flex flex-wrap gap-3">
        {/* A plain link: /install starts a fresh attempt and must never be prefetched. */}
        <a
          href={signInHref}
          aria-describedby="sign-in-hint"
          className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        >
          {t("NotFound.signIn")}
        </a>
        <LinkWithStatus href={storesHref()} className="rounded-md border border-slate-300 px-4 py-2 text-sm font-medium hover:bg-white">
          {t("NotFound.yourStores")}
        </LinkWithStatus>
      </div>
    </main>
  );
}
