/**
 * What the server benchmarks share: a scratch PostgreSQL database, a free loopback port, the production build
 * started with a complete production environment, and percentiles.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { openDatabase } from "@/db/client";
import { installs } from "@/db/schema";
import { createScratchDatabase, type ScratchDatabase } from "@/db/scratch";
import { DEV_APP } from "@/lib/dev-app";
import { migrateDatabase } from "@/lib/database/migrate";
import { nextBin } from "@/scripts/support/next-bin";

export const BENCH_DIST_DIR = process.env.BENCH_DIST_DIR ?? ".next-bench";
export const BENCH_SESSION_SECRET = "bench-session-secret-at-least-32-characters";

/** The PostgreSQL server the benchmarks create their databases on. */
export function benchDatabase(prefix: string): Promise<ScratchDatabase> {
  const serverUrl =
    process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  return createScratchDatabase(serverUrl, prefix);
}

export { freePort } from "@/scripts/support/free-port";

/** A complete production environment: the benchmarks measure the real server, validation and all. */
export function productionEnv(databaseUrl: string, port: number): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: "production",
    NEXT_DIST_DIR: BENCH_DIST_DIR,
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: String(port),
    APP_URL: `http://127.0.0.1:${port}`,
    // Neither benchmark calls the platform: an address nothing listens on proves it.
    SVC_AUTH_URL: "http://127.0.0.1:9",
    SVC_API_URL: "http://127.0.0.1:9",
    SVC_CLIENT_ID: DEV_APP.clientId,
    SVC_CLIENT_SECRET: DEV_APP.clientSecret,
    SVC_WEBHOOK_SECRET: DEV_APP.webhookSecret,
    SESSION_SECRET: BENCH_SESSION_SECRET,
    TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString("base64"),
    DATABASE_URL: databaseUrl,
    // Warnings only, so the figures measure the server, not a terminal.
    LOG_LEVEL: "warn",
  };
}

const NEXT_BIN = nextBin();

/** The bench's reference app (tooling/bench/reference): a bare App Router app on the same versions, built apart. */
export const REFERENCE_DIR = path.join("tooling", "bench", "reference");

/** `next start` of the benchmark build on 127.0.0.1:port. */
export function startNext(databaseUrl: string, port: number, env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, [NEXT_BIN, "start", "-p", String(port), "-H", "127.0.0.1"], {
    env: { ...productionEnv(databaseUrl, port), ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
}

/** `next start` of the reference app (its own build folder, tooling/bench/reference/.next-bench). */
export function startReference(databaseUrl: string, port: number): ChildProcess {
  const env = productionEnv(databaseUrl, port);
  delete env.NEXT_DIST_DIR;
  return spawn(process.execPath, [NEXT_BIN, "start", REFERENCE_DIR, "-p", String(port), "-H", "127.0.0.1"], {
    env,
    stdio: ["ignore", "ignore", "inherit"],
  });
}

/** Polls until `url` answers one of `statuses` (the server is up and routing), or fails after timeoutMs. */
export async function waitForStatus(
  url: string,
  child: ChildProcess,
  statuses: number[],
  init: RequestInit = {},
  timeoutMs = 90_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server for ${url} exited with ${child.exitCode} before answering`);
    const status = await fetch(url, init).then((response) => response.status).catch(() => 0);
    if (statuses.includes(status)) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no answer ${statuses.join("/")} from ${url} within ${timeoutMs / 1000} s`);
}

export function stopProcess(child: ChildProcess | null): Promise<void> {
  if (!child || child.exitCode !== null || child.pid === undefined) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
  });
}

/** User + system CPU of one process so far, in ms (Linux /proc; clock ticks are 100 a second). */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields 14 and 15 of the line (utime, stime), counted after the command name's closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Nearest-rank percentile of an ascending array. */
/** The middle value (the upper of the two middles for an even count), as the benches' medians of a few runs take it. */
export const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)]!;
}

/** Migrates a bench database and installs one store per id, so webhooks for those stores apply (never calls out). */
export async function seedWebhookStores(databaseUrl: string, storeIds: readonly number[]): Promise<void> {
  const handle = await openDatabase({ url: databaseUrl, maxConnections: 1 });
  try {
    await migrateDatabase(handle);
    await handle.db.insert(installs).values(
      storeIds.map((storeId) => ({
        storeId,
        installId: 9000 + storeId,
        storeName: `Bench store ${storeId}`,
        scopes: ["orders:read"],
        tokenCiphertext: "not-a-real-token",
        tokenKeyId: "bench",
      })),
    );
  } finally {
    await handle.close();
  }
}
