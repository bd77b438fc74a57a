/**
 * `npm run orders:sync`: polls the platform's GET /v1/orders for every store the app can read orders of, and
 * stores what it finds through the same upsert the webhooks use.
 *
 *   npm run orders:sync                   one pass over every store (for cron: once a minute)
 *   npm run orders:sync -- --watch        a pass every minute until stopped
 *   npm run orders:sync -- --store 101    one store only
 *   npm run orders:sync -- --full         ignore the high-water mark and read every order again
 *
 * With the embedded database (no DATABASE_URL) only one process may open its folder, so when the app is running
 * the pass is asked of the app itself through POST /api/cron/sync-orders; otherwise the folder is opened here.
 */
import { parseArgs } from "node:util";
import type { DatabaseHandle } from "../db/client";
import { openDatabaseFromEnv } from "../db/open-from-env";
import { env, type Env } from "../lib/env";
import { formatSyncResult } from "../lib/sync/format";
import { syncAllStores, syncStoreOrders, type SyncResult } from "../lib/sync/orders-sync";

const { values } = parseArgs({
  options: {
    store: { type: "string" },
    full: { type: "boolean", default: false },
    watch: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
});

const POLL_INTERVAL_MS = 60_000;

/** Asks the running app to sync; null when no app answers (then the database is opened here). */
async function throughRunningApp(env: Env, store: number | null, full: boolean): Promise<SyncResult[] | null> {
  if (!env.CRON_SECRET) return null;
  const url = new URL("/api/cron/sync-orders", env.APP_URL);
  if (store) url.searchParams.set("store", String(store));
  if (full) url.searchParams.set("full", "1");
  let response: Response;
  try {
    response = await fetch(url, { method: "POST", headers: { authorization: `Bearer ${env.CRON_SECRET}` }, signal: AbortSignal.timeout(120_000) });
  } catch {
    return null;
  }
  if (response.status === 404) return null;
  const body = (await response.json().catch(() => null)) as { stores?: SyncResult[]; error?: string } | null;
  if (!response.ok || !body?.stores) throw new Error(`the running app answered ${response.status} ${body?.error ?? ""}`.trim());
  return body.stores;
}

async function pass(env: Env, handle: () => Promise<DatabaseHandle>, store: number | null, full: boolean): Promise<SyncResult[]> {
  if (!env.DATABASE_URL) {
    const delegated = await throughRunningApp(env, store, full);
    if (delegated) {
      console.log(`(asked the running app at ${env.APP_URL})`);
      return delegated;
    }
  }
  const { db } = await handle();
  return store ? [await syncStoreOrders(db, store, { full })] : syncAllStores(db, { full, minIntervalMs: 0 });
}

async function main(): Promise<number> {
  if (values.help) {
    console.log("Usage: npm run orders:sync -- [--store <id>] [--full] [--watch]");
    return 0;
  }
  const store = values.store ? Number(values.store) : null;
  if (store !== null && !(Number.isInteger(store) && store > 0)) {
    console.error("✗ --store takes a store id (a positive integer).");
    return 2;
  }
  let opened: Promise<DatabaseHandle> | null = null;
  const handle = () =>
    (opened ??= openDatabaseFromEnv({ maxConnections: 4, migrateEmbedded: true }));

  let failed = false;
  let stop = false;
  process.once("SIGINT", () => {
    stop = true;
  });
  try {
    do {
      const started = Date.now();
      const results = await pass(env, handle, store, values.full ?? false);
      if (results.length === 0) console.log("No store to sync (no active install with orders:read).");
      for (const result of results) console.log(formatSyncResult(result));
      failed = results.some((result) => result.outcome === "failed");
      if (!values.watch) break;
      const wait = Math.max(0, POLL_INTERVAL_MS - (Date.now() - started));
      for (let waited = 0; waited < wait && !stop; waited += 500) await new Promise((resolve) => setTimeout(resolve, 500));
    } while (!stop);
  } finally {
    if (opened) await (await opened).close();
  }
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`✗ Order sync failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
