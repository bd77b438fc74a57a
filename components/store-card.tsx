import { LinkWithStatus } from "@/components/link-with-status";
import type { Translate } from "@/i18n/translate";
import { scopeGap } from "@/lib/installs/scopes";
import { installStateBadge, mayCallPlatform, type InstallBadge, type InstallState } from "@/lib/installs/state";
import { scopeLabel } from "@/lib/merchant-text/scope";
import { SECTIONS, sectionOf, storeHref } from "@/lib/sections";

const BADGE_TONES: Record<InstallBadge["tone"], string> = {
  ok: "bg-emerald-50 text-emerald-800 ring-emerald-600/30",
  danger: "bg-rose-50 text-rose-800 ring-rose-600/30",
  warning: "bg-amber-50 text-amber-800 ring-amber-600/30",
  muted: "bg-slate-100 text-slate-700 ring-slate-500/30",
};

// 44 px tall on phones (a thumb's target), plain text links from sm up.
const LINK =
  "inline-flex min-h-11 items-center text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 sm:min-h-0";

/** The permissions in words, as chips. */
export function ScopeChips({ scopes, t }: { scopes: readonly string[]; t: Translate }) {
  return (
    <ul className="flex flex-wrap gap-1.5" aria-label={t("Stores.permissions")}>
      {scopes.map((scope) => (
        <li key={scope} className="rounded bg-slate-100 px-2 py-0.5 text-xs text-slate-700" data-scope={scope}>
          {scopeLabel(scope, t)}
        </li>
      ))}
    </ul>
  );
}

/**
 * One store on /stores: its install state as the merchant reads it, its permissions in words, and where to go next.
 * A store without a working token is read-only: no permissions listed, the sections that need no connection
 * (lib/sections.ts), and one Reinstall. `sharedScopes` are the permissions the list shows once for every store: the
 * card lists its own only when they differ.
 */
export type StoreCardView = { storeId: number; storeName: string; state: InstallState; scopes: string[] };

export function StoreCard({
  install,
  t,
  list = (items) => items.join(", "),
  sharedScopes,
}: {
  install: StoreCardView;
  t: Translate;
  /** Joins words as the merchant's language does ("Customers and Reviews"): the Ui's format.list. */
  list?: (items: string[]) => string;
  sharedScopes?: readonly string[];
}) {
  const badge = installStateBadge(install.state);
  const labelId = `store-${install.storeId}-name`;
  const connected = mayCallPlatform(install.state);
  const name = <span className="sr-only"> {t("Stores.ofStore", { name: install.storeName })}</span>;
  // A grant older than the app's sections: marked here, asked again on the store's pages (components/scope-gap.tsx).
  const gap = connected ? scopeGap(install.scopes) : null;
  const locked = new Set<string>(gap?.lockedSections ?? []);
  return (
    <li aria-labelledby={labelId} className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm" data-store-id={install.storeId}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={labelId} dir="auto" className="break-words text-lg font-semibold text-slate-900">
            {install.storeName}
          </h2>
          <p className="text-sm text-slate-600">{t("Stores.storeNumber", { id: install.storeId })}</p>
        </div>
        <span
          className={`inline-flex items-center rounded-full px-2.5 py-1 text-xs font-medium ring-1 ring-inset ${BADGE_TONES[badge.tone]}`}
          data-state={install.state}
        >
          {t(badge.label)}
        </span>
      </div>
      {badge.hint && <p className="mt-3 text-sm text-slate-600">{t(badge.hint)}</p>}
      {gap && gap.missing.length > 0 ? (
        <p className="mt-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-950" data-scope-gap={gap.missing.join(" ")}>
          {gap.lockedSections.length > 0
            ? t("ScopeGap.cardNotice", { sections: list(gap.lockedSections.map((slug) => t(sectionOf(slug).label))) })
            : t("ScopeGap.cardNoticeNoSection")}
        </p>
      ) : null}
      {connected && !sameScopes(install.scopes, sharedScopes) ? (
        <div className="mt-3">
          <h3 className="sr-only">{t("Stores.permissions")}</h3>
          {install.scopes.length > 0 ? <ScopeChips scopes={install.scopes} t={t} /> : <p className="text-sm text-slate-600">{t("Stores.noPermissions")}</p>}
        </div>
      ) : null}
      <div className="mt-2 flex flex-wrap gap-x-4 text-sm font-semibold sm:mt-4 sm:gap-y-2">
        {SECTIONS.filter((section) => connected || !section.needsConnection).map((section) => (
          <LinkWithStatus key={section.slug} href={storeHref(install.storeId, section.slug)} className={LINK}>
            {t(section.label)}
            {locked.has(section.slug) ? (
              <span data-locked className="ms-1 rounded bg-amber-100 px-1 text-xs font-medium text-amber-900">
                {t("ScopeGap.lockedMark")}
              </span>
            ) : null}
            {name}
          </LinkWithStatus>
        ))}
        {connected ? null : (
          <a href="/install" className={LINK}>
            {t("Stores.reinstall")}
            <span className="sr-only"> {t("Stores.onStore", { name: install.storeName })}</span>
          </a>
        )}
      </div>
    </li>
  );
}

/** The same permissions in any order. */
export function sameScopes(scopes: readonly string[], other: readonly string[] | undefined): boolean {
  return other !== undefined && scopes.length === other.length && scopes.every((scope) => other.includes(scope));
}
