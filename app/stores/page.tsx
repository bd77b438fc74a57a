import type { Metadata } from "next";
import { StoreCard } from "@/components/store-card";
import type { Install } from "@/db/schema";
import { currentSession } from "@/lib/session";

export const metadata: Metadata = { title: "Your stores" };
export const dynamic = "force-dynamic";

/** Ids from `?installed=101,102`, kept only if they are stores of this session (nothing else is echoed). */
function installedNotice(param: string | string[] | undefined, installs: Install[]): Install[] {
  const raw = Array.isArray(param) ? param.join(",") : (param ?? "");
  const ids = new Set(raw.split(",").map((part) => Number(part)));
  return installs.filter((install) => ids.has(install.storeId));
}

export default async function StoresPage({ searchParams }: { searchParams: Promise<{ installed?: string | string[] }> }) {
  const [{ installed }, session] = await Promise.all([searchParams, currentSession()]);
  const installs = session?.installs ?? [];
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
