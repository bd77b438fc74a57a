/**
 * Orders page benchmark: server response time of GET /stores/{id}/orders with 100,000 orders in one store, on
 * the production build (`next start` from .next-bench, built by bench/run.ts) and a fresh PostgreSQL database.
 * The browser session is an iron-session cookie sealed here with the same secret, name and shape as lib/session.ts,
 * so the request goes through the real tenancy guard: no bench-only route exists.
 *
 * Target: p95 under 100 ms for every variant (first page, status filter, phone filter, a page deep in the list).
 */
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { sealData } from "iron-session";
import postgres from "postgres";
import { openDatabase } from "@/db/client";
import { encodeOrderCursor } from "@/db/queries/order-views";
import { installs } from "@/db/schema";
import {
  BENCH_DIST_DIR,
  BENCH_SESSION_SECRET,
  benchDatabase,
  freePort,
  percentile,
  startNext,
  stopProcess,
} from "./support";
import type { BenchResult } from "./types";

const STORE = 101;
const OTHER_STORE = 102;
const ORDERS = Number(process.env.BENCH_ORDERS ?? 100_000);
const REQUESTS = Number(process.env.BENCH_ORDERS_PAGE_REQUESTS ?? 200);
const WARMUP = 20;
const TARGET_P95_MS = 100;
/** lib/session.ts: cookie name and lifetime of the merchant's session. */
const SESSION_COOKIE = "app_session";
const SESSION_TTL_SECONDS = 30 * 24 * 60 * 60;

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
  if (!existsSync(path.join(BENCH_DIST_DIR, "BUILD_ID"))) {
    throw new Error(`no production build in ${BENCH_DIST_DIR}: run NEXT_BENCH_DIST_DIR=${BENCH_DIST_DIR} npx next build first (npm run bench does)`);
  }
  const database = await benchDatabase("bench_orders");
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

    const sealed = await sealData({ storeIds: [STORE] }, { password: BENCH_SESSION_SECRET, ttl: SESSION_TTL_SECONDS });
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
    await stopProcess(app);
    await database.drop();
  }
}
