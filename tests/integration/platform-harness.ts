import type { DatabaseHandle } from "@/db/client";
import { startEmulator, type RunningEmulator } from "@/emulator/src/index";
import { saveInstalledStores } from "@/lib/installs/tokens";
import { configureLog, setLogSink } from "@/lib/log";
import { APP_USER_AGENT, createStoreClient, installStateRecorder, type StoreClientConfig } from "@/lib/platform";
import { createTestDatabase } from "../helpers/database";

/**
 * One emulator and one database for a test file, and clients wired to both. Sleeps are recorded and skipped, so a
 * test asserts the waits the client asked for (the Retry-After unit, backoff) without spending them.
 */

export type SentRequest = {
  method: string;
  url: URL;
  headers: Headers;
  body: string | null;
  status: number | null;
  /** The emulator's clock when the request left. */
  at: number;
};

export type Harness = {
  db: DatabaseHandle["db"];
  emulator: RunningEmulator;
  sent: SentRequest[];
  slept: number[];
  logLines: string[];
  install(storeId: number, scopes?: string[]): Promise<{ installId: number; accessToken: string }>;
  client(storeId: number, options?: Partial<StoreClientConfig>): ReturnType<typeof createStoreClient>;
  faults(faults: Record<string, unknown>[]): Promise<void>;
  close(): Promise<void>;
};

export async function startHarness(options: { timeScale?: number } = {}): Promise<Harness> {
  const database = await createTestDatabase();
  const emulator = await startEmulator({
    port: 0,
    appUrl: "http://localhost:3999",
    dataFile: null,
    autoTick: false,
    quiet: true,
    timeScale: options.timeScale ?? 1,
  });
  const sent: SentRequest[] = [];
  const slept: number[] = [];
  const logLines: string[] = [];
  const restoreLog = setLogSink((line) => logLines.push(line));
  const restoreLogLevel = configureLog({ level: "info", format: "json" });

  const recordingFetch: typeof fetch = async (input, init) => {
    const entry: SentRequest = {
      method: init?.method ?? "GET",
      url: new URL(String(input)),
      headers: new Headers(init?.headers),
      body: typeof init?.body === "string" ? init.body : null,
      status: null,
      at: emulator.ctx.clock.nowMs(),
    };
    sent.push(entry);
    const response = await fetch(input, init);
    entry.status = response.status;
    return response;
  };

  return {
    db: database.db,
    emulator,
    sent,
    slept,
    logLines,
    async install(storeId, scopes) {
      const minted = emulator.control.mintInstall(storeId, scopes);
      const store = emulator.ctx.state.stores.find((candidate) => candidate.id === storeId);
      await saveInstalledStores(database.db, {
        scopes: scopes ?? [],
        stores: [{ storeId, storeName: store?.name ?? `Store ${storeId}`, installId: minted.installId, accessToken: minted.accessToken }],
      });
      return minted;
    },
    client(storeId, overrides = {}) {
      const db = overrides.db ?? database.db;
      return createStoreClient({
        storeId,
        db,
        baseUrl: emulator.url,
        userAgent: APP_USER_AGENT,
        // As the app's clients do (platformFor): recorded on the database the client reads.
        onInstallState: installStateRecorder(db),
        fetch: recordingFetch,
        sleep: async (ms) => {
          slept.push(ms);
        },
        retry: { maxAttempts: 3 },
        timeoutMs: 5_000,
        ...overrides,
      });
    },
    async faults(faults) {
      const response = await fetch(`${emulator.url}/_emulator/faults`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ faults }),
      });
      if (!response.ok) throw new Error(`faults refused: ${response.status} ${await response.text()}`);
    },
    async close() {
      restoreLog();
      restoreLogLevel();
      await emulator.close();
      await database.close();
    },
  };
}
