import "server-only";
import { notFound } from "next/navigation";
import type { DbOrTx } from "@/db/client";
import { getDb } from "@/db/index";
import { findInstall } from "@/db/queries/installs";
import type { Install } from "@/db/schema";
import { getSession } from "@/lib/session";

/**
 * The one guard for store-scoped pages, route handlers and actions: a store is reachable only if this browser's
 * session installed it. It answers 404 (the same as a store that does not exist, so ids cannot be probed) and
 * runs before anything else, so no platform call is ever made for a store outside the session.
 */

export type StoreAccess = { storeId: number; install: Install };

const MAX_INT4 = 2_147_483_647;

/** A store id as written in a URL: digits only, no sign, no leading zero, within the database's integer. */
export function parseStoreId(value: string): number | null {
  if (!/^[1-9][0-9]{0,9}$/.test(value)) return null;
  const id = Number(value);
  return id <= MAX_INT4 ? id : null;
}

/** The guard's decision, free of cookies and of Next's notFound(), so it can be tested directly. */
export async function resolveStoreAccess(
  db: DbOrTx,
  sessionStoreIds: readonly number[],
  storeIdParam: string,
): Promise<StoreAccess | null> {
  const storeId = parseStoreId(storeIdParam);
  if (storeId === null || !sessionStoreIds.includes(storeId)) return null;
  const install = await findInstall(db, storeId);
  return install ? { storeId, install } : null;
}

export async function sessionStoreIds(): Promise<number[]> {
  return (await getSession()).storeIds;
}

/** Calls notFound() for a store outside the session; otherwise the store and its install row (in any state). */
export async function requireStore(storeIdParam: string): Promise<StoreAccess> {
  const access = await resolveStoreAccess(await getDb(), await sessionStoreIds(), storeIdParam);
  if (!access) notFound();
  return access;
}
