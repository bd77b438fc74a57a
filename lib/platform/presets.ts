import "server-only";
import { getDb } from "@/db/index";
import { env } from "@/lib/env";
import { createStoreClient, type StoreClient, type StoreClientConfig } from "./client";

/**
 * The clients the app makes: configured from the environment, on the app's database. Tests and benchmarks build
 * their own with createStoreClient.
 */

/** Sent on every call: without one the platform's gateway answers 403 with an HTML challenge. */
export const APP_USER_AGENT = "store-app-starter/0.1 (+https://github.com/store-app-starter)";

export type PlatformOptions = Partial<Omit<StoreClientConfig, "storeId">>;

/** The client for background work (webhooks, order sync, scripts): waits out rate limits and retries patiently. */
export function platformFor(storeId: number, options: PlatformOptions = {}): StoreClient {
  return createStoreClient({
    ...options,
    storeId,
    db: options.db ?? getDb,
    baseUrl: options.baseUrl ?? env.SVC_API_URL,
    userAgent: options.userAgent ?? APP_USER_AGENT,
  });
}

/**
 * The client for a request a merchant is waiting on (a page render, a form). Background jobs may wait a minute and
 * a half for a rate-limit window; a page should not: it retries a blip once, then says how long to wait and lets
 * the merchant decide.
 */
export function interactivePlatform(storeId: number): StoreClient {
  return platformFor(storeId, {
    retry: { maxAttempts: 2, maxTotalMs: 4_000 },
    pacing: { maxWaitMs: 3_000 },
    timeoutMs: 10_000,
  });
}
