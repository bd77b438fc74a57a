import Link from "next/link";
import type { Install } from "@/db/schema";
import { installStateBadge, needsReinstall, type InstallBadge } from "@/lib/installs/state";

const BADGE_TONES: Record<InstallBadge["tone"], string> = {
  ok: "bg-emerald-50 text-emerald-800 ring-emerald-600/30",
  danger: "bg-rose-50 text-rose-800 ring-rose-600/30",
  warning: "bg-amber-50 text-amber-800 ring-amber-600/30",
  muted: "bg-slate-100 text-slate-700 ring-slate-500/30",
};

/** One store on /stores: its install state as the merchant reads it, its permissions, and where to go next. */
export function StoreCard({ install }: { install: Install }) {
  const badge = installStateBadge(install.state);
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
          className={`inline-flex items-center rounded-full px-2.5 py-1 text-xs font-medium ring-1 ring-inset ${BADGE_TONES[badge.tone]}`}
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
        <Link href={`/stores/${install.storeId}`} className="text-indigo-700 hover:underline">
          Overview<span className="sr-only"> of {install.storeName}</span>
        </Link>
        <Link href={`/stores/${install.storeId}/orders`} className="text-indigo-700 hover:underline">
          Orders<span className="sr-only"> of {install.storeName}</span>
        </Link>
        <Link href={`/stores/${install.storeId}/categories`} className="text-indigo-700 hover:underline">
          Categories<span className="sr-only"> of {install.storeName}</span>
        </Link>
        {needsReinstall(install.state) ? (
          <a href="/install" className="text-indigo-700 hover:underline">
            Install again<span className="sr-only"> on {install.storeName}</span>
          </a>
        ) : null}
      </div>
    </li>
  );
}
