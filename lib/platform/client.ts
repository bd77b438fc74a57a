import "server-only";
import { randomBytes } from "node:crypto";
import type { Db } from "@/db/client";
import { log as rootLog, type Logger } from "@/lib/log";
import { tracePlatformCall } from "@/lib/observability/platform";
import { analyticsOperation } from "./analytics";
import type { Caller } from "./caller";
import { categoryOperations } from "./categories";
import { createCredentialSource, type InstallStateRecorder } from "./credentials";
import { customerOperations } from "./customers";
import { send, type HttpMethod, type PlatformResponse, type RequestOptions, type Transport } from "./http";
import { orderOperations } from "./orders";
import { createPacer, type PacingOptions } from "./pacing";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry";
import { whoamiOperation } from "./whoami";

export type StoreClientConfig = {
  storeId: number;
  /** The database, or a getter for it (getDb): the getter runs at the first call, so making a client stays free. */
  db: Db | (() => Promise<Db>);
  /** The platform's `{base_url}` (origin, optionally with a path prefix). */
  baseUrl: string;
  userAgent: string;
  /**
   * Records what the platform said about the install (a 401 "revoked", a 403 state, "active" again after one is
   * lifted). The app's clients record it with lib/installs/record-state.ts (lib/platform/presets.ts).
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
      timeoutMs: config.timeoutMs ?? 15_000,
      userAgent: config.userAgent,
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
    whoami: whoamiOperation(call),
    categories: categoryOperations(call),
    orders: orderOperations(call),
    customers: customerOperations(call),
    analytics: analyticsOperation(call),
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
