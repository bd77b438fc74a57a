import type { Metadata } from "next";
import Link from "next/link";
import { LiveRefresh } from "@/components/live-refresh";
import { OrdersEmpty } from "@/components/orders/orders-empty";
import { OrdersFilters } from "@/components/orders/orders-filters";
import { OrdersTable } from "@/components/orders/orders-table";
import { getDb } from "@/db/index";
import { listOrdersPage } from "@/db/queries/order-views";
import { env } from "@/lib/env";
import { requireStore } from "@/lib/tenancy";
import { emulatorDashboardUrl } from "@/lib/ui/emulator-link";
import { ordersHref, parseOrderFilters } from "@/lib/ui/order-filters";

export const metadata: Metadata = { title: "Orders" };

export default async function OrdersPage({
  params,
  searchParams,
}: {
  params: Promise<{ storeId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { storeId: storeIdParam } = await params;
  const { storeId, install } = await requireStore(storeIdParam);
  const filters = parseOrderFilters(await searchParams);
  const page = await listOrdersPage(await getDb(), storeId, filters);
  const baseHref = ordersHref(storeId, {});
  const filtered = Boolean(filters.status || filters.phone);

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-2xl font-semibold tracking-tight">
          Orders <span className="sr-only">of</span>{" "}
          <span dir="auto" className="text-base font-normal text-slate-500">
            {install.storeName}
          </span>
        </h1>
        <LiveRefresh />
      </div>
      <OrdersFilters action={baseHref} status={filters.status} phone={filters.phone} />
      {page.rows.length === 0 && !filters.cursor ? (
        <OrdersEmpty
          filtered={filtered}
          clearHref={baseHref}
          dashboardUrl={emulatorDashboardUrl(env.NODE_ENV, env.SVC_AUTH_URL)}
        />
      ) : (
        <>
          <OrdersTable storeId={storeId} rows={page.rows} />
          <nav aria-label="Pages" className="flex items-center justify-between gap-3 text-sm">
            {filters.cursor ? (
              <Link href={ordersHref(storeId, { ...filters, cursor: null })} className="font-medium underline underline-offset-2">
                ← Newest orders
              </Link>
            ) : (
              <span />
            )}
            {page.nextCursor ? (
              <Link
                href={ordersHref(storeId, { ...filters, cursor: page.nextCursor })}
                rel="next"
                className="rounded-md border border-slate-300 bg-white px-3 py-1.5 font-medium hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900"
              >
                Older orders →
              </Link>
            ) : (
              <span className="text-slate-500">{filters.cursor ? "End of the list" : ""}</span>
            )}
          </nav>
        </>
      )}
    </div>
  );
}
