import type { OrderBackfill } from "@/db/schema";
import type { Translate } from "@/i18n/translate";
import { RefreshWhileVisible } from "@/components/refresh-while-visible";
import { workJobsAfterResponse } from "@/lib/jobs/app";
import { retryOrderImportForm } from "../import-actions";

/** A finished import is mentioned this long after it ends, then the notice goes away. */
const SHOW_DONE_MS = 10 * 60 * 1000;

/**
 * The store's order import (lib/jobs/backfill.ts), as a small notice on the store's pages: how many orders so far
 * while it runs (the page refreshes itself meanwhile), the total once done, or that it stopped, with a retry.
 * Server-rendered from the store's import row, which the layout has from the request's session lookup
 * (lib/session.ts currentSession): no statement of its own.
 */
export function ImportProgress({ storeId, row, t, now = new Date() }: { storeId: number; row: OrderBackfill | null; t: Translate; now?: Date }) {
  if (!row) return null;
  if (row.status === "done" && (!row.finishedAt || now.getTime() - row.finishedAt.getTime() > SHOW_DONE_MS)) return null;
  const count = row.imported;
  if (row.status === "running") {
    // A host without a worker (JOBS_WORKER=requests) also carries the import on from the merchant's page views.
    workJobsAfterResponse();
    return (
      <div role="status" data-order-import="running" className="rounded-lg border border-sky-300 bg-sky-50 px-4 py-3 text-sky-950">
        <p className="font-semibold">{t("OrderImport.running", { count })}</p>
        <p className="mt-1 text-sm">{t("OrderImport.runningHint")}</p>
        <RefreshWhileVisible intervalMs={5000} />
      </div>
    );
  }
  if (row.status === "failed") {
    return (
      <div role="status" data-order-import="failed" className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950">
        <p className="font-semibold">{t("OrderImport.failed", { count })}</p>
        <p className="mt-1 text-sm">{t("OrderImport.failedHint")}</p>
        <form action={retryOrderImportForm} className="mt-2">
          <input type="hidden" name="storeId" value={String(storeId)} />
          <button
            type="submit"
            className="button-primary"
          >
            {t("OrderImport.retry")}
          </button>
        </form>
      </div>
    );
  }
  return (
    <div role="status" data-order-import="done" className="rounded-lg border border-emerald-300 bg-emerald-50 px-4 py-3 text-emerald-950">
      <p className="font-semibold">{t("OrderImport.done", { count })}</p>
    </div>
  );
}
