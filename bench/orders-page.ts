/**
 * Orders page benchmark: server response time of GET /stores/{id}/orders with 100,000 orders in one store, on
 * the production build (`next start` from .next-bench, built by bench/run.ts) and a fresh PostgreSQL database.
 * The browser session is an iron-session cookie sealed here with the same secret, name and shape as lib/session.ts,
 * so the request goes through the real tenancy guard: no bench-only route exists.
 *
 * Target: p95 under 100 ms for every variant (first page, status filter, phone filter, a page deep in the list).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import path from "node:path";
import { sealData } from "iron-session";
import postgres from "postgres";
import { openDatabase } from "@/db/client";
import { encodeOrderCursor } from "@/db/queries/order-views";
import { installs } from "@/db/schema";
import { DEV_APP } from "@/emulator/src/dev-app";
import type { BenchResult } from "./types";

const DIST_DIR = process.env.BENCH_DIST_DIR ?? ".next-bench";
const STORE = 101;
const OTHER_STORE = 102;
const ORDERS = Number(process.env.BENCH_ORDERS ?? 100_000);
const REQUESTS = Number(process.env.BENCH_ORDERS_PAGE_REQUESTS ?? 200);
const WARMUP = 20;
const TARGET_P95_MS = 100;
const SESSION_SECRET = "bench-session-secret-at-least-32-characters";
/** lib/session.ts: cookie name and lifetime of the merchant's session. */
const SESSION_COOKIE = "app_session";
const SESSION_TTL_SECONDS = 30 * 24 * 60 * 60;

function serverUrl(): string {
  return process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function createDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const base = serverUrl();
  const name = `bench_orders_${randomBytes(5).toString("hex")}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const dropper = postgres(base, { max: 1, onnotice: () => {} });
      await dropper.unsafe(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

/**
 * 100,000 orders in one statement (generate_series), spread over two years, 7 statuses, 5,000 customer phones
 * and Arabic wilaya names; a second store gets a tenth as many so the store filter has something to skip.
 */
async function seed(databaseUrl: string): Promise<{ phone: string; deepCursor: string }> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    for (const [storeId, count] of [
      [STORE, ORDERS],
      [OTHER_STORE, Math.round(ORDERS / 10)],
    ] as const) {
      await sql`
        insert into orders (store_id, id, order_number, store_seq, status, payment_status, payment_method, delivery_type,
                            customer_name, customer_phone, wilaya_id, wilaya_name, commune, address,
                            subtotal, shipping_cost, discount, total, created_at, updated_at)
        select ${storeId}, ${storeId} * 10000000 + n, 'ORD-' || ${storeId} || '-' || to_char(ts, 'YYYYMMDD') || '-' || lpad(to_hex(n), 8, '0'),
               n, (array['pending','confirmed','processing','shipped','delivered','cancelled','returned'])[1 + n % 7],
               'unpaid', 'cod', 'home', 'Client ' || n, '05' || lpad((n % 5000)::text, 8, '0'),
               1 + n % 58, (array['الجزائر','وهران','قسنطينة','البليدة','سطيف'])[1 + n % 5], 'Centre', 'Rue ' || n,
               1000 + n % 9000, 400, 0, 1400 + n % 9000, ts, ts
        from (select n, timestamptz '2025-01-01' + (n * interval '10 minutes') as ts
              from generate_series(1, ${count}::int) as n) as series`;
    }
    await sql`analyze orders`;
    const [deep] = await sql<{ micros: string; id: string }[]>`
      select ((extract(epoch from created_at) * 1000000)::bigint)::text as micros, id::text as id
      from orders where store_id = ${STORE} order by created_at desc, id desc offset ${Math.floor(ORDERS / 2)} limit 1`;
    if (!deep) throw new Error("seeding produced no orders");
    return { phone: "0500000042", deepCursor: encodeOrderCursor({ createdAtMicros: deep.micros, id: Number(deep.id) }) };
  } finally {
    await sql.end();
  }
}

function productionEnv(databaseUrl: string, port: number): NodeJS.ProcessEnv {
  const origin = `http://127.0.0.1:${port}`;
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: "production",
    NEXT_DIST_DIR: DIST_DIR,
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: String(port),
    APP_URL: origin,
    // The orders page never calls the platform: an address nothing listens on proves it.
    SVC_AUTH_URL: "http://127.0.0.1:9",
    SVC_API_URL: "http://127.0.0.1:9",
    SVC_CLIENT_ID: DEV_APP.clientId,
    SVC_CLIENT_SECRET: DEV_APP.clientSecret,
    SVC_WEBHOOK_SECRET: DEV_APP.webhookSecret,
    SESSION_SECRET,
    TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString("base64"),
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: "warn",
  };
}

function startNext(databaseUrl: string, port: number): ChildProcess {
  const nextBin = path.join(process.cwd(), "node_modules", "next", "dist", "bin", "next");
  return spawn(process.execPath, [nextBin, "start", "-p", String(port), "-H", "127.0.0.1"], {
    env: productionEnv(databaseUrl, port),
    stdio: ["ignore", "ignore", "inherit"],
  });
}

function stop(child: ChildProcess | null): Promise<void> {
  if (!child || child.exitCode !== null || child.pid === undefined) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
  });
}

async function waitUntilAnswering(url: string, cookie: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode} before answering`);
    const status = await fetch(url, { headers: { cookie } }).then((response) => response.status).catch(() => 0);
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the orders page did not answer 200 within ${timeoutMs / 1000} s`);
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)]!;
}

/** Sequential requests (one merchant clicking), each read to the end: the time a browser waits for the HTML. */
async function timeRequests(url: string, cookie: string, expect: string): Promise<{ median: number; p95: number }> {
  const timings: number[] = [];
  for (let index = 0; index < WARMUP + REQUESTS; index++) {
    const started = performance.now();
    const response = await fetch(url, { headers: { cookie } });
    const body = await response.text();
    const elapsed = performance.now() - started;
    if (response.status !== 200 || !body.includes(expect)) {
      throw new Error(`GET ${new URL(url).pathname}${new URL(url).search} answered ${response.status} without "${expect}"`);
    }
    if (index >= WARMUP) timings.push(elapsed);
  }
  timings.sort((a, b) => a - b);
  return { median: percentile(timings, 50), p95: percentile(timings, 95) };
}

const round = (ms: number) => Math.round(ms * 10) / 10;

export async function benchOrdersPage(): Promise<BenchResult> {
  if (!existsSync(path.join(DIST_DIR, "BUILD_ID"))) {
    throw new Error(`no production build in ${DIST_DIR}: run NEXT_DIST_DIR=${DIST_DIR} npx next build first (npm run bench does)`);
  }
  const database = await createDatabase();
  let app: ChildProcess | null = null;
  try {
    const handle = await openDatabase({ url: database.url, maxConnections: 1 });
    await handle.migrate();
    await handle.db.insert(installs).values(
      [STORE, OTHER_STORE].map((storeId) => ({
        storeId,
        installId: 9000 + storeId,
        storeName: `Bench store ${storeId}`,
        scopes: ["orders:read"],
      })),
    );
    await handle.close();
    const seedStarted = performance.now();
    const { phone, deepCursor } = await seed(database.url);
    const seedSeconds = (performance.now() - seedStarted) / 1000;

    const sealed = await sealData({ storeIds: [STORE] }, { password: SESSION_SECRET, ttl: SESSION_TTL_SECONDS });
    const cookie = `${SESSION_COOKIE}=${sealed}`;
    const port = await freePort();
    app = startNext(database.url, port);
    const base = `http://127.0.0.1:${port}/stores/${STORE}/orders`;
    await waitUntilAnswering(base, cookie, app, 60_000);

    const variants = [
      { key: "firstPage", label: "first page", url: base },
      { key: "statusFilter", label: "?status=shipped", url: `${base}?status=shipped` },
      { key: "phoneFilter", label: "?phone= (20 orders)", url: `${base}?phone=${phone}` },
      { key: "deepPage", label: "cursor page 1,000 deep", url: `${base}?cursor=${deepCursor}` },
    ];
    const figures: Record<string, number> = { orders: ORDERS, requests: REQUESTS };
    const lines: string[] = [
      `${ORDERS.toLocaleString("en-US")} orders in one store (+${Math.round(ORDERS / 10).toLocaleString("en-US")} in another), seeded in ${seedSeconds.toFixed(1)} s; ${REQUESTS} sequential requests per variant after ${WARMUP} warm-up`,
    ];
    for (const variant of variants) {
      const { median, p95 } = await timeRequests(variant.url, cookie, `ORD-${STORE}-`);
      figures[`${variant.key}MedianMs`] = round(median);
      figures[`${variant.key}P95Ms`] = round(p95);
      lines.push(
        `${variant.label}: median ${round(median)} ms, p95 ${round(p95)} ms (${p95 < TARGET_P95_MS ? "within" : "OVER"} the ${TARGET_P95_MS} ms target)`,
      );
    }
    return { title: "Orders page server response (production build, PostgreSQL)", lines, figures };
  } finally {
    await stop(app);
    await database.drop();
  }
}
