import type { Translate } from "@/i18n/translate";
import type { Formats } from "@/i18n/format";
import { lackingScopes, scopeGap } from "@/lib/installs/scopes";
import { scopeLabel } from "@/lib/merchant-text/scope";
import { sectionOf, storeHref, type SectionSlug } from "@/lib/sections";

/**
 * What a store whose grant lacks a needed scope shows (lib/installs/scopes.ts): one banner on its pages naming what
 * the new permission opens, and a locked section's page. Both lead to the same consent: the platform's authorize
 * takes no store hint, so the merchant picks the store on its screen (the hint says which), and the callback
 * brings them back to the section, open.
 */

/**
 * The consent again, landing back on `slug`'s page of the store once approved. The same authorize as a first
 * install, asking for every scope the app asks for: the platform replaces the install's scopes with what this
 * consent grants, so asking for the missing scope alone would take the others away.
 */
export function consentAgainHref(storeId: number, slug: SectionSlug): string {
  return `/install?return_to=${encodeURIComponent(storeHref(storeId, slug))}`;
}

function quoted(scopes: readonly string[], t: Translate, format: Formats): string {
  return format.list(scopes.map((scope) => t("ScopeGap.quoted", { permission: scopeLabel(scope, t) })));
}

function ApproveLink({ href, label, storeName }: { href: string; label: string; storeName: string }) {
  return (
    <a href={href} className="button-primary mt-2 inline-flex min-h-11 items-center sm:min-h-0" data-approve-scopes>
      {label}
      <span className="sr-only" dir="auto">
        {" "}
        ({storeName})
      </span>
    </a>
  );
}

/** Nothing when the grant has every needed scope; otherwise the one banner of the store's pages. */
export function ScopeGapBanner({
  storeId,
  storeName,
  granted,
  t,
  format,
}: {
  storeId: number;
  storeName: string;
  granted: readonly string[];
  t: Translate;
  format: Formats;
}) {
  const gap = scopeGap(granted);
  if (gap.missing.length === 0) return null;
  const landing = gap.lockedSections[0] ?? "overview";
  const sections = format.list(gap.lockedSections.map((slug) => t(sectionOf(slug).label)));
  return (
    <section
      aria-labelledby="scope-gap-title"
      data-scope-gap={gap.missing.join(" ")}
      className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950"
    >
      <h2 id="scope-gap-title" className="font-semibold">
        {t("ScopeGap.title", { count: gap.missing.length })}
      </h2>
      <p className="mt-1 text-sm">
        {gap.lockedSections.length > 0
          ? t("ScopeGap.body", { permissions: quoted(gap.missing, t, format), sections })
          : t("ScopeGap.bodyNoSection", { permissions: quoted(gap.missing, t, format) })}
      </p>
      {gap.syncBlocked ? <p className="mt-1 text-sm">{t("ScopeGap.syncBlocked")}</p> : null}
      <p className="mt-1 text-sm">{t("ScopeGap.pickStore", { name: `\u2068${storeName}\u2069` })}</p>
      <ApproveLink href={consentAgainHref(storeId, landing)} label={t("ScopeGap.approve")} storeName={storeName} />
    </section>
  );
}

/** A section's page while the grant lacks its scope: a 200 page that says what to approve, not an error. */
export function LockedSection({
  slug,
  storeId,
  storeName,
  granted,
  heading,
  t,
  format,
}: {
  slug: SectionSlug;
  storeId: number;
  storeName: string;
  granted: readonly string[];
  heading: React.ReactNode;
  t: Translate;
  format: Formats;
}) {
  const missing = lackingScopes(granted, sectionOf(slug).scopes);
  return (
    <div className="space-y-4">
      {heading}
      <section data-locked-section={slug} className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-slate-800">
        <h2 className="text-base font-semibold">{t("ScopeGap.lockedTitle")}</h2>
        <p className="mt-1 text-sm">
          {t("ScopeGap.lockedBody", { section: t(sectionOf(slug).label), permissions: quoted(missing, t, format) })}
        </p>
        <ApproveLink href={consentAgainHref(storeId, slug)} label={t("ScopeGap.approve")} storeName={storeName} />
      </section>
    </div>
  );
}
