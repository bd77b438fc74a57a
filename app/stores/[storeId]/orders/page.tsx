import { notFound } from "next/navigation";
import { cache } from "react";
import { LinkWithStatus } from "@/components/link-with-status";
import { LiveRefresh } from "@/components/live-refresh";
import { OrdersEmpty } from "@/components/orders/orders-empty";
import { OrdersFilters } from "@/components/orders/orders-filters";
import { OrdersTable } from "@/components/orders/orders-table";
import { getDb } from "@/lib/database/app-database";
import { listOrdersPage } from "@/db/queries/order-views";
import { env } from "@/lib/env";
import { emulatorDashboardUrl } from "./emulator-link";
import { mayCallPlatform } from "@/lib/installs/state";
import { hasUnknownCursor, orderListOptions, ordersHref, parseOrderFilters, type OrderFilters } from "@/lib/orders/filters";
import { ordersPageVersion, ordersProbeHref } from "@/lib/orders/live";
import { currentSession } from "@/lib/session";
import { sectionMetadata, storePage } from "../_components/store-page";

export const generateMetadata = sectionMetadata("orders");

/** An arrow that points along the reading direction: mirrored in right-to-left pages. */
function Arrow({ back }: { back?: boolean }) {
  return (
    <span aria-hidden="true" className="inline-block rtl:-scale-x-100">
      {back ? "←" : "→"}
    </span>
  );
}

/**
 * The page's one read, once per request and filters (React's cache): the frame starts it beside the tenancy guard
 * (storePage's preload) and the body awaits the same promise. Arguments are the filters' values, which cache()
 * compares one by one.
 */
const readOrders = cache(async (storeId: number, status: OrderFilters["status"], phone: string | null, cursor: string | null) =>
  listOrdersPage(await getDb(), storeId, orderListOptions({ status, phone, cursor })),
);

/** The store's orders from the app's own database: filters, cursor pages, live updates while connected. */
export default storePage("orders", async ({ storeId, install, searchParams, ui: { t, rich, format }, heading }) => {
  const filters = parseOrderFilters(searchParams);
  // A page marker this app never wrote answers 404 (./not-found.tsx).
  if (hasUnknownCursor(filters)) notFound();
  const page = await readOrders(storeId, filters.status, filters.phone, filters.cursor);
  const baseHref = ordersHref(storeId, {});
  const filtered = Boolean(filters.status || filters.phone);
  // A store the app no longer reaches gets no new orders: no "Updates automatically" that would never update.
  const connected = mayCallPlatform(install.state);
  // The version of what this page shows, for its probe (lib/orders/live.ts): the session is the request's one read.
  const session = connected ? await currentSession() : null;
  const probe = session
    ? ordersProbeHref(storeId, filters, ordersPageVersion({ installs: session.installs, backfill: session.backfills.get(storeId) ?? null, page }))
    : undefined;

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        {heading}
        {connected ? <LiveRefresh t={t} probe={probe} /> : null}
      </div>
      <OrdersFilters action={baseHref} status={filters.status} phone={filters.phone} t={t} />
      {filters.phoneRefused ? (
        <p role="status" className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-slate-800">
          {t("Orders.phoneRefused")}
        </p>
      ) : null}
      {page.rows.length === 0 && !filters.cursor ? (
        <OrdersEmpty
          filtered={filtered}
          connected={connected}
          clearHref={baseHref}
          dashboardUrl={emulatorDashboardUrl(env.NODE_ENV, env.SVC_AUTH_URL)}
          t={t}
          rich={rich}
        />
      ) : (
        <div className="space-y-4">
          <OrdersTable storeId={storeId} rows={page.rows} t={t} format={format} />
          <nav aria-label={t("Orders.pages")} className="flex flex-wrap items-center justify-between gap-3 text-sm">
            {filters.cursor ? (
              <LinkWithStatus href={ordersHref(storeId, { ...filters, cursor: null })} className="font-medium underline underline-offset-2">
                <Arrow back /> {t("Orders.newest")}
              </LinkWithStatus>
            ) : (
              <span />
            )}
            {page.nextCursor ? (
              <LinkWithStatus
                href={ordersHref(storeId, { ...filters, cursor: page.nextCursor })}
                rel="next"
                className="button-secondary"
              >
                {t("Orders.older")} <Arrow />
              </LinkWithStatus>
            ) : (
              <span className="text-slate-600">{filters.cursor ? t("Orders.end") : ""}</span>
            )}
          </nav>
        </div>
      )}
    </div>
  );
}, {
  preload: ({ storeId, searchParams }) => {
    const filters = parseOrderFilters(searchParams);
    // A failure is the body's to report (it awaits the same promise), or nobody's when the guard refuses the store.
    if (!hasUnknownCursor(filters)) readOrders(storeId, filters.status, filters.phone, filters.cursor).catch(() => undefined);
  },
});
