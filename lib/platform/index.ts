import "server-only";
import type { Db } from "@/db/client";
import { getDb } from "@/db/index";
import { env } from "@/lib/env";
import { createStoreClient, type StoreClient, type StoreClientConfig } from "./client";
import { APP_USER_AGENT } from "./oauth";

/**
 * The single boundary to the platform's REST API. Pages, actions, webhooks and scripts call domain functions on
 * `platformFor(storeId)`; nothing else in the app calls fetch against the platform.
 */

export type PlatformOptions = Partial<Omit<StoreClientConfig, "storeId" | "db">> & { db?: Db };

export function platformFor(storeId: number, options: PlatformOptions = {}): StoreClient {
  let client: StoreClient | null = null;
  const resolve = async (): Promise<StoreClient> => {
    client ??= createStoreClient({
      ...options,
      storeId,
      db: options.db ?? (await getDb()),
      baseUrl: options.baseUrl ?? env.SVC_API_URL,
      userAgent: options.userAgent ?? APP_USER_AGENT,
    });
    return client;
  };
  return lazyClient(storeId, resolve);
}

/** The client's shape, with the database handle resolved on first call (getDb() is async). */
function lazyClient(storeId: number, resolve: () => Promise<StoreClient>): StoreClient {
  const later =
    <Args extends unknown[], R>(pick: (client: StoreClient) => (...args: Args) => Promise<R>) =>
    async (...args: Args): Promise<R> =>
      pick(await resolve())(...args);
  const iterate =
    <Args extends unknown[], T>(pick: (client: StoreClient) => (...args: Args) => AsyncIterable<T>) =>
    (...args: Args): AsyncGenerator<T> =>
      (async function* () {
        yield* pick(await resolve())(...args);
      })();
  return {
    storeId,
    whoami: later((client) => client.whoami),
    categories: {
      list: later((client) => client.categories.list),
      iterate: iterate((client) => client.categories.iterate),
      tree: later((client) => client.categories.tree),
      get: later((client) => client.categories.get),
      create: later((client) => client.categories.create),
      update: later((client) => client.categories.update),
      reorder: later((client) => client.categories.reorder),
      delete: later((client) => client.categories.delete),
    },
    orders: { list: later((client) => client.orders.list), iterate: iterate((client) => client.orders.iterate) },
    customers: { list: later((client) => client.customers.list), iterate: iterate((client) => client.customers.iterate) },
    analytics: later((client) => client.analytics),
    request: (method, path, requestOptions) => resolve().then((client) => client.request(method, path, requestOptions)),
  } as StoreClient;
}

export { createStoreClient, type StoreClient, type StoreClientConfig } from "./client";
export { PlatformError, isPlatformError, type PlatformErrorKind } from "./errors";
export { parsePlatformOrder } from "./parse-order";
export { newIdempotencyKey, deriveIdempotencyKey, isValidIdempotencyKey } from "./idempotency";
export type { HttpMethod, PlatformResponse, RequestOptions } from "./http";
export type { CategoryListParams, ReorderItem } from "./categories";
export type { OrderListParams } from "./orders";
export type { CustomerListParams } from "./customers";
export type { AnalyticsParams } from "./analytics";
export type * from "./types";
