import { storeIdOfPath, storesHref } from "@/lib/sections";

/**
 * Where a merchant goes after signing in: back to the store page they were trying to open. Only a path inside
 * one store is accepted (never another origin, never a protocol-relative `//host`), so the parameter cannot be
 * used to send a merchant elsewhere after the consent screen.
 */

const MAX_RETURN_PATH_LENGTH = 512;
/** Path segments of plain characters and a plain query: no `//`, no dot segment, nothing to decode into one. */
const PLAIN_PATH = /^(?:\/[A-Za-z0-9_-]+)+\/?(?:\?[A-Za-z0-9_.~%=&+-]*)?$/;

/** The path itself when it is a store page of this app, else null. */
export function safeReturnPath(value: unknown): string | null {
  if (typeof value !== "string" || value.length > MAX_RETURN_PATH_LENGTH || !PLAIN_PATH.test(value)) return null;
  return storeIdOfPath(value) === null ? null : value;
}

/**
 * After a consent: the page to land on. The return path only when its store was among those just chosen (a store
 * left unticked would answer 404); otherwise the list of stores with the new ones announced.
 */
export function landingAfterInstall(returnTo: string | null, storeIds: readonly number[]): string {
  const storeList = storesHref({ installed: storeIds.join(",") });
  if (returnTo === null) return storeList;
  const storeId = storeIdOfPath(returnTo);
  return storeIds.some((id) => id === storeId) ? returnTo : storeList;
}
