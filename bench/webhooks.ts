/**
 * Webhook receiver benchmark: signed, distinct order.created events per second and p50/p99 latency at 50
 * concurrent senders, against the production build (`next start` from .next-bench, built by bench/run.ts) on a
 * fresh PostgreSQL database, beside a bare node:http server doing the same verification and transaction (the same
 * library code, no Next) in a process of its own. Loopback only, a bounded number of events per side.
 *
 * Targets: p99 well under one second, and at least half the bare server's throughput.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import postgres from "postgres";
import { openDatabase } from "@/db/client";
import { installs } from "@/db/schema";
import { DEV_APP } from "@/lib/dev-app";
import type { Logger } from "@/lib/log";
import { startWebhookServer } from "@/lib/webhooks/node-server";
import { sampleEnvelope, signDelivery, type SignedDelivery } from "@/lib/webhooks/samples";
import {
  BENCH_DIST_DIR,
  benchDatabase,
  freePort,
  percentile,
  productionEnv,
  startNext,
  stopProcess,
} from "./support";
import type { BenchResult } from "./types";

const EVENTS_PER_SIDE = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 3000);
const WARMUP_EVENTS = 300;
const CONCURRENCY = 50;
const APP_STORE = 101;
const BARE_STORE = 102;
const BARE_FLAG = "--bare-webhook-server";

type SideResult = { label: string; perSecond: number; p50: number; p99: number; failures: number; seconds: number };

function post(agent: http.Agent, url: URL, delivery: SignedDelivery): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method: "POST", agent, headers: { ...delivery.headers, "content-length": String(delivery.body.length) } },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
      },
    );
    request.on("error", reject);
    request.end(delivery.body);
  });
}

function deliveries(storeId: number, count: number, firstOrderId: number): SignedDelivery[] {
  return Array.from({ length: count }, (_, index) =>
    signDelivery(sampleEnvelope("order.created", { storeId, orderId: firstOrderId + index }), DEV_APP.webhookSecret),
  );
}

/** CONCURRENCY senders, each taking the next event as soon as its previous answer is in. */
async function drive(label: string, target: URL, events: SignedDelivery[]): Promise<SideResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const latencies: number[] = [];
  let failures = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let index = next++; index < events.length; index = next++) {
        const sent = performance.now();
        const status = await post(agent, target, events[index]!).catch(() => 0);
        latencies.push(performance.now() - sent);
        if (status < 200 || status >= 300) failures++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { label, perSecond: events.length / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), failures, seconds };
}

async function waitUntilAnswering(url: URL, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode} before answering`);
    const status = await fetch(url, { method: "POST", body: "{}" }).then((response) => response.status).catch(() => 0);
    // 401: the route is up and checking signatures.
    if (status === 401) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no answer from ${url.origin} within ${timeoutMs / 1000} s`);
}

function startBare(databaseUrl: string, port: number): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", "--conditions=react-server", path.join(process.cwd(), "bench", "webhooks.ts"), BARE_FLAG], {
    env: { ...productionEnv(databaseUrl, port), BARE_PORT: String(port) },
    stdio: ["ignore", "ignore", "inherit"],
  });
}

async function countOrders(databaseUrl: string, storeId: number): Promise<number> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql<{ n: number }[]>`select count(*)::int as n from orders where store_id = ${storeId}`;
    return row?.n ?? 0;
  } finally {
    await sql.end();
  }
}

export async function benchWebhooks(): Promise<BenchResult> {
  if (!existsSync(path.join(BENCH_DIST_DIR, "BUILD_ID"))) {
    throw new Error(`no production build in ${BENCH_DIST_DIR}: run NEXT_BENCH_DIST_DIR=${BENCH_DIST_DIR} npx next build first (npm run bench does)`);
  }
  const database = await benchDatabase("bench_webhooks");
  let app: ChildProcess | null = null;
  let bare: ChildProcess | null = null;
  try {
    const handle = await openDatabase({ url: database.url, maxConnections: 1 });
    await handle.migrate();
    await handle.db.insert(installs).values(
      [APP_STORE, BARE_STORE].map((storeId) => ({
        storeId,
        installId: 9000 + storeId,
        storeName: `Bench store ${storeId}`,
        scopes: ["orders:read"],
        tokenCiphertext: "not-a-real-token",
        tokenKeyId: "bench",
      })),
    );
    await handle.close();

    const [appPort, barePort] = [await freePort(), await freePort()];
    app = startNext(database.url, appPort);
    bare = startBare(database.url, barePort);
    const appUrl = new URL(`http://127.0.0.1:${appPort}/api/webhooks`);
    const bareUrl = new URL(`http://127.0.0.1:${barePort}/api/webhooks`);
    await Promise.all([waitUntilAnswering(appUrl, app, 90_000), waitUntilAnswering(bareUrl, bare, 60_000)]);

    // Signed up front so signing costs the senders nothing while measured; well inside the 5-minute tolerance.
    await drive("warm-up", appUrl, deliveries(APP_STORE, WARMUP_EVENTS, 1));
    await drive("warm-up", bareUrl, deliveries(BARE_STORE, WARMUP_EVENTS, 1));
    const bareResult = await drive("bare node:http", bareUrl, deliveries(BARE_STORE, EVENTS_PER_SIDE, 1_000_000));
    const appResult = await drive("Next.js route", appUrl, deliveries(APP_STORE, EVENTS_PER_SIDE, 1_000_000));

    const stored = { app: await countOrders(database.url, APP_STORE), bare: await countOrders(database.url, BARE_STORE) };
    const expected = EVENTS_PER_SIDE + WARMUP_EVENTS;
    const ratio = appResult.perSecond / bareResult.perSecond;
    const line = (result: SideResult, rows: number) =>
      `${result.label}: ${result.perSecond.toFixed(0)} events/s, p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms` +
      ` (${EVENTS_PER_SIDE} events in ${result.seconds.toFixed(1)} s, ${result.failures} non-2xx, ${rows}/${expected} orders stored)`;
    return {
      title: `Webhook receiver: signed order.created events, ${CONCURRENCY} concurrent senders, PostgreSQL`,
      lines: [
        line(appResult, stored.app),
        line(bareResult, stored.bare),
        `Next.js route reaches ${(ratio * 100).toFixed(0)}% of the bare server's throughput (target ≥ 50%); p99 target well under 1000 ms.`,
      ],
      figures: {
        appEventsPerSecond: Math.round(appResult.perSecond),
        appP50Ms: Number(appResult.p50.toFixed(1)),
        appP99Ms: Number(appResult.p99.toFixed(1)),
        bareEventsPerSecond: Math.round(bareResult.perSecond),
        bareP50Ms: Number(bareResult.p50.toFixed(1)),
        bareP99Ms: Number(bareResult.p99.toFixed(1)),
        throughputRatio: Number(ratio.toFixed(2)),
        failures: appResult.failures + bareResult.failures,
      },
    };
  } finally {
    await Promise.all([stopProcess(app), stopProcess(bare)]);
    await database.drop();
  }
}

/** The bare server, run as its own process so it does not share an event loop with the senders. */
async function runBareServer(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error("DATABASE_URL is required");
  const handle = await openDatabase({ url: databaseUrl, maxConnections: 10 });
  const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {}, with: () => quiet };
  await startWebhookServer({ db: handle.db, secret: DEV_APP.webhookSecret, logger: quiet }, { port: Number(process.env.BARE_PORT) });
  process.once("SIGTERM", () => {
    void handle.close().finally(() => process.exit(0));
  });
}

if (process.argv.includes(BARE_FLAG)) {
  runBareServer().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
}
