import { headers } from "next/headers";
import type { ReactElement, ReactNode } from "react";
import { getUi } from "@/i18n/server";
import type { Translate } from "@/i18n/translate";
import { isDatabaseUnavailable, retryPath } from "@/lib/database-unavailable";
import { REQUEST_PATH_HEADER } from "@/lib/http/request-path";
import { log } from "@/lib/log";

/**
 * What a page shows when the app's own database is not answering (lib/database-unavailable.ts): what happened,
 * that the store and its orders are safe, and Try again, a plain link to the same page. Rendered on the server
 * only: no client code, no error details. Its look is the error panel's (app/globals.css).
 */
export function DatabaseUnavailable({ t, retryHref }: { t: Translate; retryHref: string }) {
  return (
    <section role="alert" aria-labelledby="database-unavailable-title" className="error-panel" data-database-unavailable>
      <h1 id="database-unavailable-title">{t("Errors.databaseTitle")}</h1>
      <p>{t("Errors.databaseMessage")}</p>
      <p>{t("Errors.databaseSafe")}</p>
      <div>
        <a href={retryHref} className="button-primary">
          {t("Errors.tryAgain")}
        </a>
      </div>
    </section>
  );
}

/**
 * The page-level catch: renders `render()`, or DatabaseUnavailable when it failed because the database is not
 * answering. Any other error (a bug, notFound(), redirect()) is thrown on, to Next and the error boundary.
 * `retry` is the Try again link when the request's own path is not known; `standalone` puts the panel in a page's
 * <main> of its own, for a page or layout whose whole markup it replaces (a store page's sits in the shell's).
 *
 * The answer's HTTP status stays 200: a server component cannot set one (only notFound(), redirect() and the like
 * choose a status, and none means 503). Monitors read /api/health, which answers 503.
 */
export async function orDatabaseUnavailable(
  render: () => Promise<ReactNode>,
  options: { retry: string; standalone?: boolean },
): Promise<ReactNode> {
  try {
    return await render();
  } catch (error) {
    return databaseUnavailableAnswer(error, options);
  }
}

async function databaseUnavailableAnswer(error: unknown, options: { retry: string; standalone?: boolean }): Promise<ReactElement> {
  if (!isDatabaseUnavailable(error)) throw error;
  const [{ t }, requestHeaders] = await Promise.all([getUi(), headers()]);
  const retryHref = retryPath(requestHeaders.get(REQUEST_PATH_HEADER), options.retry);
  // The path without its query: a filter there can be a customer's phone number.
  log.warn("page shown as 'database unavailable'", { path: retryHref.split("?")[0], error });
  const panel = <DatabaseUnavailable t={t} retryHref={retryHref} />;
  return options.standalone ? (
    <main id="main" className="mx-auto max-w-2xl px-4 py-16">
      {panel}
    </main>
  ) : (
    panel
  );
}
