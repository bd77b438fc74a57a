import { PAGE_SCOPES, SECTIONS, type SectionSlug } from "@/lib/sections";
import { mayCallPlatform } from "./state";

/**
 * What an install's grant lacks, decided here once: the store's pages (banner, locked sections), the store list,
 * the order sync and import (lib/sync/orders-sync.ts canPoll), `npm run jobs` and /api/metrics all ask below.
 *
 * A section added after a store was installed (`npm run new:section -- reviews --scope customers:read`) meets that
 * store with a grant that lacks its scope. The platform replaces an install's scopes when the consent runs again
 * for the store (same install_id, new token), so the app asks again; until then the sections that need the scope
 * are locked, not broken, and nothing that needs it calls the platform (a 403 is never the way the app learns it).
 * Only what is missing is ever a reason to ask: a grant with more scopes than the app needs is left alone.
 *
 * Plain functions over scope lists: no database, no env, no React.
 */

/**
 * The scopes the order sync (the poller and the import after an install, both GET /v1/orders) needs. The order
 * webhooks need the same one: the platform sends order events only to installs granted it.
 */
export const SYNC_SCOPES: readonly string[] = ["orders:read"];

/** Every scope the app needs: its sections' (PAGE_SCOPES) and the sync's, sections first. */
export const NEEDED_SCOPES: readonly string[] = [...new Set([...PAGE_SCOPES, ...SYNC_SCOPES])];

export type ScopeGap = {
  /** The needed scopes the grant lacks, in NEEDED_SCOPES order. Empty: nothing to ask. */
  missing: string[];
  /** The sections whose page needs a missing scope, in the registry's order: locked until the merchant approves. */
  lockedSections: SectionSlug[];
  /** The order sync needs a missing scope: it does not call the platform for this store. */
  syncBlocked: boolean;
};

/** The scopes of `needed` that `granted` lacks, in `needed`'s order. */
export function lackingScopes(granted: readonly string[], needed: readonly string[]): string[] {
  const have = new Set(granted);
  return needed.filter((scope) => !have.has(scope));
}

/** The section's page needs a scope the grant lacks. */
export function isSectionLocked(slug: SectionSlug, granted: readonly string[]): boolean {
  return SECTIONS.some((section) => section.slug === slug && lackingScopes(granted, section.scopes).length > 0);
}

/** Compares one grant with what the app needs. */
export function scopeGap(granted: readonly string[]): ScopeGap {
  return {
    missing: lackingScopes(granted, NEEDED_SCOPES),
    lockedSections: SECTIONS.filter((section) => lackingScopes(granted, section.scopes).length > 0).map((section) => section.slug),
    syncBlocked: lackingScopes(granted, SYNC_SCOPES).length > 0,
  };
}

/** The merchant is asked to approve again: the install still reaches the store and its grant lacks a needed scope. */
export function needsConsentAgain(install: { state: string; scopes: readonly string[] }): boolean {
  return mayCallPlatform(install.state) && lackingScopes(install.scopes, NEEDED_SCOPES).length > 0;
}

/**
 * For every needed scope, how many stores the app still reaches lack it (0 included, so a scope every store has
 * shows as 0 rather than going missing). A store cut off (uninstalled, revoked) is left out: a new install asks for
 * every scope anyway.
 */
export function countStoresLackingScopes(
  grants: readonly { state: string; scopes: readonly string[]; /** Stores with this grant (db countInstallsByGrant); 1 unless given. */ stores?: number }[],
): { scope: string; stores: number }[] {
  const reached = grants.filter((grant) => mayCallPlatform(grant.state));
  return NEEDED_SCOPES.map((scope) => ({
    scope,
    stores: reached.filter((grant) => !grant.scopes.includes(scope)).reduce((sum, grant) => sum + (grant.stores ?? 1), 0),
  }));
}
