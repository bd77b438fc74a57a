import "server-only";
import type { Db } from "@/db/client";
import { getDb } from "@/db/index";
import { env } from "@/lib/env";
import { recordInstallState } from "@/lib/installs/record-state";
import { createStoreClient, type StoreClient, type StoreClientConfig } from "./client";
import type { InstallStateRecorder } from "./credentials";

/**
 * The clients the app makes: configured from the environment, on the app's database. Tests and benchmarks build
 * their own with createStoreClient.
 */

/** Sent on every call: without one the platform's gateway answers 403 with an HTML challenge. */
export const APP_USER_AGENT = "store-app-starter/0.1 (+https://github.com/store-app-starter)";

export type PlatformOptions = Partial<Omit<StoreClientConfig, "storeId">>;

/**
 * What the platform says about an install is recorded on the app's database: a 401 records "revoked", which
 * destroys the token and ends the store's sessions (lib/installs/record-state.ts).
 */
export function installStateRecorder(database: Db | (() => Promise<Db>)): InstallStateRecorder {
  return async ({ storeId, state, at, expectedCiphertext }) => {
    const db = typeof database === "function" ? await database() : database;
    await recordInstallState(db, storeId, state, at, { expectedCiphertext });
  };
}

/** The client for background work (webhooks, order sync, scripts): waits out rate limits and retries patiently. */
export function platformFor(storeId: number, options: PlatformOptions = {}): StoreClient {
  const db = options.db ?? getDb;
  return createStoreClient({
    ...options,
    storeId,
    db,
    onInstallState: options.onInstallState ?? installStateRecorder(db),
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
