import { parseStoreId } from "@/lib/tenancy";

/**
 * Where a merchant goes after signing in: back to the store page they were trying to open. Only a path inside
 * one store is accepted (never another origin, never a protocol-relative `//host`), so the parameter cannot be
 * used to send a merchant elsewhere after the consent screen.
 */

const MAX_RETURN_PATH_LENGTH = 512;
const STORE_PATH = /^\/stores\/([0-9]{1,10})(?:\/[A-Za-z0-9_-]+)*\/?(?:\?[A-Za-z0-9_.~%=&+-]*)?$/;

/** The path itself when it is a store page of this app, else null. */
export function safeReturnPath(value: unknown): string | null {
  if (typeof value !== "string" || value.length > MAX_RETURN_PATH_LENGTH) return null;
  const match = STORE_PATH.exec(value);
  if (!match?.[1]) return null;
  return parseStoreId(match[1]) === null ? null : value;
}

/** The store a return path opens (the path must have passed safeReturnPath). */
export function returnPathStoreId(path: string): number | null {
  const match = STORE_PATH.exec(path);
  return match?.[1] ? parseStoreId(match[1]) : null;
}

/**
 * After a consent: the page to land on. The return path only when its store was among those just chosen (a store
 * left unticked would answer 404); otherwise the list of stores with the new ones announced.
 */
export function landingAfterInstall(returnTo: string | null, storeIds: readonly number[]): string {
  const storeList = `/stores?installed=${storeIds.join(",")}`;
  if (returnTo === null) return storeList;
  const storeId = returnPathStoreId(returnTo);
  return storeIds.some((id) => id === storeId) ? returnTo : storeList;
}
