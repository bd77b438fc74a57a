import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db/index";
import { listInstallsByStoreIds } from "@/db/queries/installs";
import type { Install, InstallState } from "@/db/schema";
import { getSession } from "@/lib/session";

export const metadata: Metadata = { title: "Your stores" };
export const dynamic = "force-dynamic";

const STATE_BADGES: Record<InstallState, { label: string; className: string; hint?: string }> = {
  active: { label: "Active", className: "bg-emerald-50 text-emerald-800 ring-emerald-600/30" },
  uninstalled: {
    label: "Uninstalled",
    className: "bg-slate-100 text-slate-700 ring-slate-500/30",
    hint: "The app was uninstalled from this store. Install it again to reconnect.",
  },
  revoked: {
    label: "Access revoked",
    className: "bg-rose-50 text-rose-800 ring-rose-600/30",
    hint: "The platform no longer accepts this store's token. Install again to reconnect.",
  },
  app_suspended: {
    label: "App suspended",
    className: "bg-amber-50 text-amber-800 ring-amber-600/30",
    hint: "The platform has suspended the app. Access returns when the suspension is lifted.",
  },
  app_not_approved: {
    label: "Awaiting approval",
    className: "bg-amber-50 text-amber-800 ring-amber-600/30",
    hint: "The app is not approved yet for stores outside its developer's account.",
  },
  app_plan_required: {
    label: "Plan upgrade needed",
    className: "bg-amber-50 text-amber-800 ring-amber-600/30",
    hint: "This store's plan is below the app's minimum plan.",
  },
};

function badgeFor(state: string) {
  return STATE_BADGES[state as InstallState] ?? { label: state, className: "bg-slate-100 text-slate-700 ring-slate-500/30" };
}

/** Ids from `?installed=101,102`, kept only if they are stores of this session (nothing else is echoed). */
function installedNotice(param: string | string[] | undefined, installs: Install[]): Install[] {
  const raw = Array.isArray(param) ? param.join(",") : (param ?? "");
  const ids = new Set(raw.split(",").map((part) => Number(part)));
  return installs.filter((install) => ids.has(install.storeId));
}

function StoreCard({ install }: { install: Install }) {
  const badge = badgeFor(install.state);
  const labelId = `store-${install.storeId}-name`;
  return (
    <li aria-labelledby={labelId} className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm" data-store-id={install.storeId}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id={labelId} className="text-lg font-semibold text-slate-900">
            {install.storeName}
          </h2>
          <p className="text-sm text-slate-500">Store #{install.storeId}</p>
        </div>
        <span
          className={`inline-flex items-center rounded-full px-2.5 py-1 text-xs font-medium ring-1 ring-inset ${badge.className}`}
          data-state={install.state}
        >
          {badge.label}
        </span>
      </div>
      {badge.hint && <p className="mt-3 text-sm text-slate-600">{badge.hint}</p>}
      <div className="mt-3">
        <h3 className="sr-only">Permissions granted</h3>
        {install.scopes.length > 0 ? (
          <ul className="flex flex-wrap gap-1.5" aria-label="Permissions granted">
            {install.scopes.map((scope) => (
              <li key={scope} className="rounded bg-slate-100 px-2 py-0.5 font-mono text-xs text-slate-700">
                {scope}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-500">No permissions recorded.</p>
        )}
      </div>
      <div className="mt-4 flex flex-wrap gap-3 text-sm font-semibold">
        <Link href={`/stores/${install.storeId}/orders`} className="text-indigo-700 hover:underline">
          Orders<span className="sr-only"> of {install.storeName}</span>
        </Link>
        <Link href={`/stores/${install.storeId}/categories`} className="text-indigo-700 hover:underline">
          Categories<span className="sr-only"> of {install.storeName}</span>
        </Link>
        {install.state === "uninstalled" || install.state === "revoked" ? (
          <a href="/install" className="text-indigo-700 hover:underline">
            Install again<span className="sr-only"> on {install.storeName}</span>
          </a>
        ) : null}
      </div>
    </li>
  );
}

export default async function StoresPage({ searchParams }: { searchParams: Promise<{ installed?: string | string[] }> }) {
  const [{ installed }, { storeIds }] = await Promise.all([searchParams, getSession()]);
  const installs = await listInstallsByStoreIds(await getDb(), storeIds);
  const justInstalled = installedNotice(installed, installs);

  return (
    <main className="mx-auto max-w-3xl px-6 py-10">
      <header className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-bold text-slate-900">Your stores</h1>
        <div className="flex items-center gap-3">
          <a
            href="/install"
            className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
          >
            Add stores
          </a>
          <form action="/signout" method="post">
            <button
              type="submit"
              className="rounded-md px-4 py-2 text-sm font-semibold text-slate-700 ring-1 ring-slate-300 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
            >
              Sign out
            </button>
          </form>
        </div>
      </header>

      {justInstalled.length > 0 && (
        <div role="status" className="mt-6 rounded-lg border border-emerald-300 bg-emerald-50 p-4 text-emerald-900">
          <p className="font-semibold">
            Installed on {justInstalled.length} {justInstalled.length === 1 ? "store" : "stores"}:{" "}
            {justInstalled.map((install) => install.storeName).join(", ")}.
          </p>
          <p className="mt-1 text-sm">
            The platform checks each store again when the install completes, so a store you selected may be missing here.
            Its orders are being fetched now.
          </p>
        </div>
      )}

      {installs.length > 0 ? (
        <ul className="mt-6 space-y-4" aria-label="Installed stores">
          {installs.map((install) => (
            <StoreCard key={install.storeId} install={install} />
          ))}
        </ul>
      ) : (
        <div className="mt-6 rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center">
          <p className="font-semibold text-slate-900">No stores in this browser yet</p>
          <p className="mt-1 text-slate-600">Install the app on your stores to see them here.</p>
          <a
            href="/install"
            className="mt-4 inline-block rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white hover:bg-indigo-500"
          >
            Install on your stores
          </a>
        </div>
      )}
    </main>
  );
}
