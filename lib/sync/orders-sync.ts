import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import type { Db } from "@/db/client";
import { findInstall, listAllInstalls } from "@/db/queries/installs";
import { upsertOrder } from "@/db/queries/orders";
import { acquireSyncLease, findSyncState, releaseSyncLease, renewSyncLease } from "@/db/queries/sync-state";
import type { Install } from "@/db/schema";
import { mayPoll } from "@/lib/installs/state";
import { log as rootLogger, type Logger } from "@/lib/log";
import { isPlatformError, platformFor, type PlatformOptions, type PlatformOrder } from "@/lib/platform";

/**
 * Order backfill and polling through GET /v1/orders (since, limit=50, cursors). Webhooks are the main feed; this
 * fills the gap before the first webhook (on install), catches up after an outage, and is the documented
 * alternative to order webhooks. Both write through upsertOrder, so they converge on the same rows.
 * One poller per store across instances: a database lease (order_sync_state) with an expiry, renewed per page.
 */

/** What the poller needs from the API client: `platformFor(storeId).orders` fits. */
export type OrdersSource = {
  iterate(params: { since?: string; limit?: number }): AsyncIterable<PlatformOrder>;
};

export type SyncOutcome = "synced" | "busy" | "failed" | "skipped";

export type SyncResult = {
  storeId: number;
  outcome: SyncOutcome;
  fetched: number;
  inserted: number;
  updated: number;
  /** Why a store was skipped or failed: safe to print (no token, no payload). */
  detail?: string;
};

export type SyncOptions = {
  /** Where orders come from; defaults to the API client for this store. */
  source?: OrdersSource;
  /** Options for that default client (another base URL in tests, a custom fetch). */
  platform?: Omit<PlatformOptions, "db">;
  /** Ignore the stored high-water mark and read every order (a full backfill). */
  full?: boolean;
  owner?: string;
  now?: () => Date;
  leaseTtlMs?: number;
  logger?: Logger;
};

/** The list endpoint's page size the platform suggests for polling once a minute per store. */
export const SYNC_PAGE_SIZE = 50;
/** A lease outlives a stuck or crashed instance by at most this long. Renewed after every page. */
export const SYNC_LEASE_TTL_MS = 2 * 60 * 1000;
/**
 * Each poll re-reads orders created up to this long before the newest one already seen: an order whose created_at
 * is older than one listed earlier (clock skew, slow commit on the platform) is still picked up. Re-read orders
 * are no-ops thanks to the updated_at guard.
 */
export const SYNC_OVERLAP_MS = 5 * 60 * 1000;

/** Identifies this process as a lease holder. */
export const INSTANCE_ID = `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;

function defaultSource(db: Db, storeId: number, options: SyncOptions["platform"]): OrdersSource {
  return platformFor(storeId, { ...options, db }).orders;
}

function describeFailure(error: unknown): string {
  if (isPlatformError(error)) return `${error.code}${error.status ? ` (${error.status})` : ""}: ${error.message}`.slice(0, 300);
  return (error instanceof Error ? error.message : "unknown error").slice(0, 300);
}

/**
 * Why an install is not polled, or null. Which states are polled is lib/installs/state.ts's call: the ones the
 * platform lifts by itself are, since their webhooks are dropped meanwhile and the first poll that succeeds both
 * records the install active again and catches up on the orders missed.
 */
export function canPoll(install: Install): string | null {
  if (!mayPoll(install.state) || !install.tokenCiphertext) return `install ${install.state}`;
  // Without orders:read the list answers 403; asking would only spend the store's budget.
  if (!install.scopes.includes("orders:read")) return "orders:read not granted";
  return null;
}

export async function syncStoreOrders(db: Db, storeId: number, options: SyncOptions = {}): Promise<SyncResult> {
  const now = options.now ?? (() => new Date());
  const owner = options.owner ?? INSTANCE_ID;
  const ttlMs = options.leaseTtlMs ?? SYNC_LEASE_TTL_MS;
  const logger = (options.logger ?? rootLogger).with({ storeId });
  const result: SyncResult = { storeId, outcome: "synced", fetched: 0, inserted: 0, updated: 0 };

  const install = await findInstall(db, storeId);
  const unusable = install ? canPoll(install) : "not installed";
  if (unusable) return { ...result, outcome: "skipped", detail: unusable };

  const lease = await acquireSyncLease(db, { storeId, owner, now: now(), ttlMs });
  if (!lease) return { ...result, outcome: "busy", detail: "another instance is syncing this store" };

  const since = !options.full && lease.sinceCursor ? new Date(lease.sinceCursor.getTime() - SYNC_OVERLAP_MS) : undefined;
  let highWater: Date | null = null;
  try {
    const source = options.source ?? defaultSource(db, storeId, options.platform);
    let sinceRenewal = 0;
    for await (const order of source.iterate({ since: since?.toISOString(), limit: SYNC_PAGE_SIZE })) {
      if (order.storeId !== storeId) continue;
      result.fetched++;
      const written = await upsertOrder(db, storeId, order);
      if (written.outcome === "inserted") result.inserted++;
      else if (written.outcome === "updated") result.updated++;
      if (!highWater || order.createdAt > highWater) highWater = order.createdAt;
      if (++sinceRenewal >= SYNC_PAGE_SIZE) {
        sinceRenewal = 0;
        if (!(await renewSyncLease(db, { storeId, owner, now: now(), ttlMs }))) {
          throw new Error("sync lease lost to another instance");
        }
      }
    }
    await releaseSyncLease(db, { storeId, owner, now: now(), sinceCursor: highWater, syncedAt: now(), lastError: null });
    logger.info("orders synced", { fetched: result.fetched, inserted: result.inserted, updated: result.updated });
    return result;
  } catch (error) {
    const detail = describeFailure(error);
    // Progress made before the failure is kept: the rows are written, and the mark only moves forward.
    await releaseSyncLease(db, { storeId, owner, now: now(), sinceCursor: highWater, lastError: detail }).catch(() => false);
    logger.warn("order sync failed", { error: detail, fetched: result.fetched });
    return { ...result, outcome: "failed", detail };
  }
}

export type SyncAllOptions = Omit<SyncOptions, "source"> & {
  /** A store synced more recently than this is left alone (several schedulers, one poll a minute). */
  minIntervalMs?: number;
  /** Stores synced at the same time; each store's calls are paced by the API client. */
  concurrency?: number;
  sourceFor?: (storeId: number) => OrdersSource | Promise<OrdersSource>;
};

/** One polling pass over every store the app may read orders of. */
export async function syncAllStores(db: Db, options: SyncAllOptions = {}): Promise<SyncResult[]> {
  const now = options.now ?? (() => new Date());
  const minIntervalMs = options.minIntervalMs ?? 50_000;
  const installs = (await listAllInstalls(db)).filter((install) => canPoll(install) === null);
  const queue = [...installs];
  const results: SyncResult[] = [];
  const worker = async () => {
    for (let install = queue.shift(); install; install = queue.shift()) {
      const state = await findSyncState(db, install.storeId);
      const elapsed = state?.lastSyncedAt ? now().getTime() - state.lastSyncedAt.getTime() : null;
      // A mark in the future (another instance's clock running ahead) does not hold the store back.
      if (!options.full && elapsed !== null && elapsed >= 0 && elapsed < minIntervalMs) {
        results.push({ storeId: install.storeId, outcome: "skipped", fetched: 0, inserted: 0, updated: 0, detail: "synced recently" });
        continue;
      }
      const source = options.sourceFor ? await options.sourceFor(install.storeId) : undefined;
      results.push(await syncStoreOrders(db, install.storeId, { ...options, source }));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 2) }, worker));
  return results.sort((a, b) => a.storeId - b.storeId);
}
