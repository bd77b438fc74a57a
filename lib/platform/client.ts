import "server-only";
import { randomBytes } from "node:crypto";
import type { Db } from "@/db/client";
import { getDb } from "@/lib/database/app-database";
import { env } from "@/lib/env";
import { log as rootLog, type Logger } from "@/lib/log";
import { tracePlatformCall } from "@/lib/observability/platform";
import { recordInstallState } from "@/lib/installs/record-state";
import { createCredentialSource, type InstallStateRecorder } from "./credentials";
import {
  APP_USER_AGENT,
  DEFAULT_TIMEOUT_MS,
  INTERACTIVE_TIMEOUT_MS,
  send,
  type HttpMethod,
  type PlatformResponse,
  type RequestOptions,
  type Transport,
} from "./http";
import { createPacer, type PacingOptions } from "./pacing";
import { isResource, type Caller, type Resource } from "./resource";
import * as exported from "./resources";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry";

export type StoreClientConfig = {
  storeId: number;
  /** The database, or a getter for it (getDb): the getter runs at the first call, so making a client stays free. */
  db: Db | (() => Promise<Db>);
  /** The platform's `{base_url}` (origin, optionally with a path prefix). */
  baseUrl: string;
  /** APP_USER_AGENT unless a test or benchmark names itself. */
  userAgent?: string;
  /**
   * Records what the platform said about the install (a 401 "revoked", a 403 state, "active" again after one is
   * lifted). The app's clients record it with lib/installs/record-state.ts (`installStateRecorder` below).
   */
  onInstallState: InstallStateRecorder;
  fetch?: typeof fetch;
  /** Milliseconds since the epoch; pacing windows are clock minutes of this clock. */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** Names this app instance in request ids and log lines. */
  instanceId?: string;
  retry?: Partial<RetryPolicy>;
  pacing?: Partial<PacingOptions>;
  timeoutMs?: number;
  log?: Logger;
};

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Random per process, so request ids from two instances never collide. */
const PROCESS_INSTANCE = `app-${randomBytes(3).toString("hex")}`;

type Exported = typeof exported;
/** `client.<name>` for every resource resources.ts lists: `client.whoami()`, `client.categories.list()`, ... */
export type ResourceOperations = {
  [Name in keyof Exported as Exported[Name] extends Resource<unknown> ? Name : never]: Exported[Name] extends Resource<infer Operations>
    ? Operations
    : never;
};

function bindResources(call: Caller): ResourceOperations {
  const bound: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(exported)) if (isResource(value)) bound[name] = value.operations(call);
  return bound as ResourceOperations;
}

/**
 * A client bound to one store. Cheap to make (nothing is read until the first call): make one per request or job.
 * The store's token is read once per client and dropped as soon as the platform says it is dead.
 */
export function createStoreClient(config: StoreClientConfig) {
  const now = config.now ?? Date.now;
  const sleep = config.sleep ?? realSleep;
  const random = config.random ?? Math.random;
  const database = config.db;
  const openTransport = async (): Promise<Transport> => {
    const db = typeof database === "function" ? await database() : database;
    return {
      storeId: config.storeId,
      baseUrl: config.baseUrl,
      fetch: config.fetch ?? fetch,
      now,
      sleep,
      random,
      pacer: createPacer({ db, now, sleep, random }, config.pacing),
      credentials: createCredentialSource(db, config.storeId, now, config.onInstallState),
      retry: { ...DEFAULT_RETRY_POLICY, ...config.retry },
      timeoutMs: config.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      userAgent: config.userAgent ?? APP_USER_AGENT,
      instanceId: config.instanceId ?? PROCESS_INSTANCE,
      log: config.log ?? rootLog,
    };
  };
  // One transport per client: its credential source remembers a token the platform declared dead.
  let transport: Promise<Transport> | null = null;
  const call: Caller = async (method, path, options) => {
    transport ??= openTransport().catch((error: unknown) => {
      transport = null;
      throw error;
    });
    const opening = transport;
    return tracePlatformCall(method, path, async () => send(await opening, method, path, options));
  };

  return {
    storeId: config.storeId,
    ...bindResources(call),
    /**
     * Any other of the platform's operations, with the same pacing, retries, idempotency and install-state handling.
     * `data` is the envelope's `data`, unparsed: validate it with a schema where the spec documents the shape.
     */
    request<T = unknown>(method: HttpMethod, path: string, options?: RequestOptions): Promise<PlatformResponse<T>> {
      return call(method, path, options) as Promise<PlatformResponse<T>>;
    },
  };
}

export type StoreClient = ReturnType<typeof createStoreClient>;

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
    timeoutMs: INTERACTIVE_TIMEOUT_MS,
  });
}
