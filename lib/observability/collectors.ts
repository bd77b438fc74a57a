import "server-only";
import type { PgBoss } from "pg-boss";
import type { DatabaseHandle, Db } from "@/db/client";
import { countInstallsByGrant } from "@/db/queries/installs";
import { listSyncProgress } from "@/db/queries/sync-progress";
import { countStoresLackingScopes } from "@/lib/installs/scopes";
import { mayCallPlatform } from "@/lib/installs/state";
import { queueStats } from "@/lib/jobs/stats";
import { registerCollector, type CollectedMetric } from "./registry";

/**
 * Figures read when /api/metrics is scraped rather than counted as they happen: they describe the whole system
 * (every instance shares one database), so any instance reads the same values.
 *
 * The job queue's figures (depth, failures and age of the oldest job by kind) are read the same way, from pg-boss's
 * table (lib/jobs/stats.ts). A new system-wide figure is one more collector registered below.
 */

/** How many stores the per-store lag gauge names, the most behind first: its label set stays bounded however many install. */
export const SYNC_LAG_TOP_STORES = 10;

/** The stores-behind gauge's thresholds, in seconds: a minute (one poll), 5 minutes (the alert), 15 minutes, an hour. */
export const SYNC_LAG_THRESHOLDS = [60, 300, 900, 3600] as const;

/**
 * How long one read of the sync lag serves scrapes. The read covers every install, and every instance is scraped,
 * often by two Prometheus replicas: within this window they share one read. The lag alert is about minutes, so a
 * figure up to this old changes nothing.
 */
export const SYNC_LAG_READ_INTERVAL_MS = 30_000;

/**
 * The order-sync lag of polled stores (seconds since each store's orders were last synced, since its install when
 * never): the oldest, how many stores are behind each threshold, and the stores most behind by id. The per-store
 * series are the top few only, so 10,000 stores make 10 series, not 10,000.
 */
export async function collectSyncLag(db: Db, now: Date): Promise<CollectedMetric[]> {
  const polled = (await listSyncProgress(db)).filter((row) => mayCallPlatform(row.state));
  const lags = polled
    .map((row) => ({
      storeId: row.storeId,
      seconds: Math.max(0, (now.getTime() - (row.lastSyncedAt ?? row.installedAt).getTime()) / 1000),
    }))
    .sort((a, b) => b.seconds - a.seconds || a.storeId - b.storeId);
  return [
    {
      name: "store_app_order_sync_lag_seconds",
      help: `Seconds since the store's orders were last synced by the poller (since its install when never), for the ${SYNC_LAG_TOP_STORES} polled stores most behind.`,
      type: "gauge",
      series: lags.slice(0, SYNC_LAG_TOP_STORES).map((lag) => ({ labels: { store: String(lag.storeId) }, value: lag.seconds })),
    },
    {
      name: "store_app_order_sync_lag_max_seconds",
      help: "The oldest order sync among polled stores, in seconds (0 with none).",
      type: "gauge",
      series: [{ value: lags[0]?.seconds ?? 0 }],
    },
    {
      name: "store_app_order_sync_stores_behind",
      help: "Polled stores whose orders were last synced more than `over` seconds ago.",
      type: "gauge",
      series: SYNC_LAG_THRESHOLDS.map((over) => ({ labels: { over: String(over) }, value: lags.filter((lag) => lag.seconds > over).length })),
    },
    { name: "store_app_order_sync_polled_stores", help: "Stores the poller reads (installed and allowed to call the platform).", type: "gauge", series: [{ value: lags.length }] },
  ];
}

/**
 * For every scope the app needs (lib/installs/scopes.ts), how many stores the app reaches lack it: after a deploy
 * whose new section adds a scope, the figure falls as merchants approve it. One grouped statement, a few rows.
 */
export async function collectScopeGaps(db: Db): Promise<CollectedMetric[]> {
  return [
    {
      name: "store_app_stores_missing_scope",
      help: "Stores the app reaches whose grant lacks a scope the app needs (their merchants are asked to approve it), by scope.",
      type: "gauge",
      series: countStoresLackingScopes(await countInstallsByGrant(db)).map((row) => ({ labels: { scope: row.scope }, value: row.stores })),
    },
  ];
}

/**
 * `read`, run at most once per `intervalMs`: calls within the window share the last result (or the read still under
 * way). A failed read is not kept, so the next scrape tries again.
 */
export function oncePerInterval<T>(intervalMs: number, read: () => Promise<T>, now: () => number = Date.now): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | undefined;
  return () => {
    const at = now();
    if (last && at - last.at < intervalMs) return last.value;
    const value = read();
    last = { at, value };
    value.catch(() => {
      if (last?.value === value) last = undefined;
    });
    return value;
  };
}

/** One cached sync-lag read per database (the app's one, a worker's, a test's own), kept while that database is. */
const syncLagReads = new WeakMap<Db, () => Promise<CollectedMetric[]>>();

function syncLagOf(db: Db): Promise<CollectedMetric[]> {
  let read = syncLagReads.get(db);
  if (!read) syncLagReads.set(db, (read = oncePerInterval(SYNC_LAG_READ_INTERVAL_MS, () => collectSyncLag(db, new Date()))));
  return read();
}

/**
 * The database pool as this process sees it: which database, the pool's size, and whether it is open. The
 * statements in flight and their durations are counted as they run (lib/observability/database.ts).
 */
export function collectPool(handle: DatabaseHandle | null): CollectedMetric[] {
  const client = handle ? (handle.db as unknown as { $client?: { options?: { max?: unknown } } }).$client : undefined;
  const max = typeof client?.options?.max === "number" ? client.options.max : handle?.kind === "embedded" ? 1 : 0;
  return [
    {
      name: "store_app_db_pool_open",
      help: "1 when this process has its database open, by kind (server: PostgreSQL through postgres.js; embedded: PGlite).",
      type: "gauge",
      series: [{ labels: { kind: handle?.kind ?? "none" }, value: handle ? 1 : 0 }],
    },
    { name: "store_app_db_pool_max_connections", help: "Connections the pool may open.", type: "gauge", series: [{ value: max }] },
  ];
}

/** The job queue by kind: jobs waiting and running, jobs failed for good, and how long the oldest waiting job has waited. */
export async function collectJobQueue(boss: PgBoss): Promise<CollectedMetric[]> {
  const figures = await queueStats(boss);
  const byKind = (value: (row: (typeof figures)[number]) => number) => figures.map((row) => ({ labels: { kind: row.name }, value: value(row) }));
  return [
    {
      name: "store_app_job_queue_depth",
      help: "Jobs of each kind by state: queued (waiting, or waiting for a retry) and active (running on some worker).",
      type: "gauge",
      series: figures.flatMap((row) => [
        { labels: { kind: row.name, state: "queued" }, value: row.queued },
        { labels: { kind: row.name, state: "active" }, value: row.active },
      ]),
    },
    {
      name: "store_app_job_failed",
      help: "Jobs of each kind failed for good (retries spent), kept until the engine's retention deletes them.",
      type: "gauge",
      series: byKind((row) => row.failed),
    },
    {
      name: "store_app_job_oldest_queued_age_seconds",
      help: "Seconds the oldest waiting job of each kind has waited (0 when none waits).",
      type: "gauge",
      series: byKind((row) => row.oldestQueuedSeconds),
    },
  ];
}

export type ScrapeSources = {
  /** The process's database handle (lib/database/app-database.ts getDatabase). */
  database: () => Promise<DatabaseHandle>;
  /** The same database with the request paths' statement deadline (lib/database/app-database.ts getDb): a dead one fails the scrape's read fast. */
  db: () => Promise<Db>;
  /** True while the first open is under way (lib/database/app-database.ts isDatabaseOpening). */
  isOpening: () => boolean;
  /** The process's job engine (lib/jobs/app.ts getJobs, or a worker's own). */
  jobs?: () => Promise<PgBoss>;
};

/** Registers the scrape-time collectors on the process's registry (idempotent: by name). */
export function registerScrapeCollectors(sources: ScrapeSources): void {
  registerCollector("database_pool", async () => collectPool(sources.isOpening() ? null : await sources.database().catch(() => null)));
  registerCollector("order_sync", async () => syncLagOf(await sources.db()));
  registerCollector("scope_gaps", async () => collectScopeGaps(await sources.db()));
  const jobs = sources.jobs;
  if (jobs) registerCollector("job_queue", async () => collectJobQueue(await jobs()));
}
