import { sealData, unsealData } from "iron-session";
import type { DbOrTx } from "@/db/client";
import { findSessionStoreIds } from "@/db/queries/sessions";

/**
 * A returning merchant proves itself by its browser, not by its network (lib/oauth/install-budget.ts admits such a
 * proof ahead of the per-network budgets, to the token budget's reserve):
 * - a live or recently ended session: the session cookie's id names a session row, or endings kept for it
 *   (ended_grants, 12 hours after a sign-out or an expiry);
 * - the "installed before" cookie, set after every successful consent: the store ids that consent granted (and those
 *   the cookie already named), sealed with SESSION_SECRET (iron-session: encrypted and signed), long-lived. It holds
 *   no token and opens nothing: it only says "this browser completed a consent for these stores".
 * Either proof is worth one share of the reserve per window, keyed by the lowest store id it names, so one cookie
 * copied to any number of networks, or a store owner signing in from many, still has one share. A proof is earned
 * only by a consent the platform accepted: bogus callbacks never earn one.
 */

/** Long enough to span a merchant's quiet months; browsers cap a cookie's life near 400 days anyway. */
export const INSTALLED_BEFORE_TTL_SECONDS = 365 * 24 * 60 * 60;

/** Stores one cookie remembers: far more than a merchant owns, and the sealed value stays well under 4 kB. */
export const INSTALLED_BEFORE_MAX_STORES = 50;

/** Marks the sealed value as this cookie's, so no other value sealed with the same secret is read as one. */
const PURPOSE = "installed-before";

type Sealed = { purpose?: unknown; stores?: unknown };

function isStoreId(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value > 0;
}

/** The store ids a sealed "installed before" value names (ascending, each once), or [] for anything else. */
export async function installedBeforeStores(value: string | undefined, password: string): Promise<number[]> {
  if (!value) return [];
  // A forged, tampered or expired seal unseals to {} (iron-session answers so rather than throwing). The expiry is
  // the one sealed into the value (sealInstalledBefore), which unsealing checks whatever ttl it is given.
  const data = await unsealData<Sealed>(value, { password });
  if (data.purpose !== PURPOSE || !Array.isArray(data.stores) || !data.stores.every(isStoreId)) return [];
  return normalised(data.stores);
}

function normalised(storeIds: readonly number[]): number[] {
  return [...new Set(storeIds)].sort((a, b) => a - b).slice(0, INSTALLED_BEFORE_MAX_STORES);
}

/** The sealed value for a browser whose consent just installed `storeIds`, keeping the stores it named before. */
export async function sealInstalledBefore(storeIds: readonly number[], previous: readonly number[], password: string): Promise<string> {
  const stores = normalised([...previous, ...storeIds].filter(isStoreId));
  return sealData({ purpose: PURPOSE, stores }, { password, ttl: INSTALLED_BEFORE_TTL_SECONDS });
}

/** The budget key of a proof naming these stores: the lowest, so every proof naming it shares one share. */
export function returningKey(storeIds: readonly number[]): string | null {
  const valid = storeIds.filter(isStoreId);
  return valid.length === 0 ? null : `store:${Math.min(...valid)}`;
}

/**
 * The key of the returning merchant's proof a browser presents (its "installed before" cookie's value and its
 * session's id), or null when it presents none.
 */
export async function returningProof(
  db: DbOrTx,
  input: { installedBefore: string | undefined; sessionId: string | null; password: string },
): Promise<string | null> {
  const [sealed, held] = await Promise.all([
    installedBeforeStores(input.installedBefore, input.password),
    // Stryker disable next-line ConditionalExpression: equivalent, no session row or ending has a null id; this skips the query
    input.sessionId === null ? [] : findSessionStoreIds(db, input.sessionId),
  ]);
  return returningKey([...sealed, ...held]);
}
