import type { Db } from "@/db/client";
import { findBackfill } from "@/db/queries/backfills";
import { findInstall, listAllInstalls } from "@/db/queries/installs";
import { upsertOrder } from "@/db/queries/orders";
import { findSyncState, recordPoll } from "@/db/queries/sync-state";
import type { Install } from "@/db/schema";
import { lackingScopes, SYNC_SCOPES } from "@/lib/installs/scopes";
import { mayCallPlatform } from "@/lib/installs/state";
import { log as rootLogger, type Logger } from "@/lib/log";
import { isPlatformError, platformFor, type PlatformOptions, type PlatformOrder } from "@/lib/platform";

/**
 * Order backfill and polling through GET /v1/orders (since, limit=50, cursors). Webhooks are the main feed; this
 * fills the gap before the first webhook (on install), catches up after an outage, and is the documented
 * alternative to order webhooks. Both write through upsertOrder, so they converge on the same rows.
 * One poller per store across instances is the job engine's business (lib/jobs: a stately queue keyed by store);
 * the full import after an install is lib/jobs/backfill.ts, page by page with a saved cursor.
 */

/** What the poller needs from the API client: `platformFor(storeId).orders` fits. */
export type OrdersSource = {
  iterate(params: { since?: string; limit?: number }): AsyncIterable<PlatformOrder>;
};

export type SyncOutcome = "synced" | "failed" | "skipped";

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
  /** Ignore the stored high-water mark and read every order. */
  full?: boolean;
  now?: () => Date;
  logger?: Logger;
};

/** The list endpoint's page size the platform suggests for polling once a minute per store. */
export const SYNC_PAGE_SIZE = 50;
/**
 * Each poll re-reads orders created up to this long before the newest one already seen: an order whose created_at
 * is older than one listed earlier (clock skew, slow commit on the platform) is still picked up. Re-read orders
 * are no-ops thanks to the updated_at guard.
 */
export const SYNC_OVERLAP_MS = 5 * 60 * 1000;

function defaultSource(db: Db, storeId: number, options: SyncOptions["platform"]): OrdersSource {
  return platformFor(storeId, { ...options, db }).orders;
}

/** A short, secret-free description of a failure, for logs, the job's record and the merchant's notice. */
export function describeFailure(error: unknown): string {
  if (isPlatformError(error)) return `${error.code}${error.status ? ` (${error.status})` : ""}: ${error.message}`.slice(0, 300);
  return (error instanceof Error ? error.message : "unknown error").slice(0, 300);
}

/**
 * Why an install is not polled, or null. Which states are polled is lib/installs/state.ts's call: the ones the
 * platform lifts by itself are, since their webhooks are dropped meanwhile and the first poll that succeeds both
 * records the install active again and catches up on the orders missed.
 */
export function canPoll(install: Install): string | null {
  if (!mayCallPlatform(install.state) || !install.tokenCiphertext) return `install ${install.state}`;
  // Without the sync's scope the list answers 403: the store waits, without a call, for the merchant to approve it
  // (lib/installs/scopes.ts; its pages ask), and the re-install that grants it starts a fresh import.
  const lacking = lackingScopes(install.scopes, SYNC_SCOPES);
  if (lacking.length > 0) return `${lacking.join(" ")} not granted`;
  return null;
}

export async function syncStoreOrders(db: Db, storeId: number, options: SyncOptions = {}): Promise<SyncResult> {
  const now = options.now ?? (() => new Date());
  const logger = (options.logger ?? rootLogger).with({ storeId });
  const result: SyncResult = { storeId, outcome: "synced", fetched: 0, inserted: 0, updated: 0 };

  const install = await findInstall(db, storeId);
  const unusable = install ? canPoll(install) : "not installed";
  if (unusable) return { ...result, outcome: "skipped", detail: unusable };
  // While the import runs (or waits for the merchant's retry), the mark is the import's to set: a poll reads only
  // what is newer than the newest order the import saw, and leaves the mark alone. Before the import's first page
  // there is nothing to read from.
  const backfill = options.full ? null : await findBackfill(db, storeId);
  const importing = backfill !== null && backfill.status !== "done";
  if (importing && !backfill.newestCreatedAt) return { ...result, outcome: "skipped", detail: `order import ${backfill.status}` };

  const state = options.full || importing ? null : await findSyncState(db, storeId);
  const from = importing ? backfill.newestCreatedAt : state?.sinceCursor;
  const since = from ? new Date(from.getTime() - SYNC_OVERLAP_MS) : undefined;
  let highWater: Date | null = null;
  try {
    const source = options.source ?? defaultSource(db, storeId, options.platform);
    for await (const order of source.iterate({ since: since?.toISOString(), limit: SYNC_PAGE_SIZE })) {
      if (order.storeId !== storeId) continue;
      result.fetched++;
      const written = await upsertOrder(db, storeId, order);
      if (written.outcome === "inserted") result.inserted++;
      else if (written.outcome === "updated") result.updated++;
      if (!highWater || order.createdAt > highWater) highWater = order.createdAt;
    }
    await recordPoll(db, { storeId, now: now(), ...(importing ? {} : { sinceCursor: highWater }), syncedAt: now(), lastError: null });
    logger.info("orders synced", { fetched: result.fetched, inserted: result.inserted, updated: result.updated });
    return result;
  } catch (error) {
    const detail = describeFailure(error);
    // The rows read are kept, but the mark stays: the list is newest first, so the orders below the newest one read
    // are not all stored yet. The next poll reads them again from the old mark.
    await recordPoll(db, { storeId, now: now(), lastError: detail }).catch(() => undefined);
    logger.warn("order sync failed", { error: detail, fetched: result.fetched });
    return { ...result, outcome: "failed", detail };
  }
}

/** The stores a poll may read orders of, for the once-a-minute fan-out (lib/jobs). */
export async function pollableStoreIds(db: Db): Promise<number[]> {
  return (await listAllInstalls(db)).filter((install) => canPoll(install) === null).map((install) => install.storeId);
}
