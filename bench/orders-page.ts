/**
 * Orders page benchmark: server response time of GET /stores/{id}/orders with 100,000 orders in one store, on
 * the production build (`next start` from .next-bench, built by bench/run.ts) and a fresh PostgreSQL database.
 * The browser session is a real one: a sessions row opened by lib/session-lifecycle's signIn, and its secret as the
 * cookie, with the same name and shape as lib/session.ts writes it, so the request goes through the real tenancy
 * guard: no bench-only route exists.
 *
 * The floor is the reference app's 50-row page (bench/reference/app/rows: the same table built from memory, no
 * database, no session), timed in the same run with requests interleaved with the app's.
 *
 * Targets, as ratios within the run: p95 and median at most 1.5x the floor page's for every variant (first page,
 * status filter, phone filter, a page deep in the list), and at most 1 kB of HTML per row, the RSC payload included.
 */
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { sealData } from "iron-session";
import postgres from "postgres";
import { openDatabase } from "@/db/client";
import { encodeOrderCursor } from "@/db/queries/order-views";
import { installs } from "@/db/schema";
import { signIn } from "@/lib/session-lifecycle";
import {
  BENCH_DIST_DIR,
  BENCH_SESSION_SECRET,
  cpuMs,
  REFERENCE_DIR,
  benchDatabase,
  freePort,
  percentile,
  startNext,
  startReference,
  stopProcess,
  waitForStatus,
} from "./support";
import type { BenchResult } from "./types";
import { migrateDatabase } from "@/lib/database/migrate";

export const STORE = 101;
const OTHER_STORE = 102;
const ORDERS = Number(process.env.BENCH_ORDERS ?? 100_000);
const REQUESTS = Number(process.env.BENCH_ORDERS_PAGE_REQUESTS ?? 200);
const WARMUP = 20;
const TARGET_P95_RATIO = 1.5;
const TARGET_BYTES_PER_ROW = 1024;
const ROWS_PER_PAGE = 50;
/** lib/session.ts: the session cookie's name. */
const SESSION_COOKIE = "app_session";

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

/**
 * The bench database: migrated, two installs, a session holding the first store (its cookie returned) and the
 * seeded orders. bench/orders-cpu.ts starts from the same database.
 */
export async function prepareOrdersDatabase(databaseUrl: string): Promise<{ cookie: string; phone: string; deepCursor: string }> {
  const handle = await openDatabase({ url: databaseUrl, maxConnections: 1 });
  await migrateDatabase(handle);
  await handle.db.insert(installs).values(
    [STORE, OTHER_STORE].map((storeId) => ({
      storeId,
      installId: 9000 + storeId,
      storeName: `Bench store ${storeId}`,
      scopes: ["orders:read"],
    })),
  );
  const { secret } = await signIn(handle.db, { previousId: null, storeIds: [STORE], now: new Date() });
  await handle.close();
  const { phone, deepCursor } = await seed(databaseUrl);
  // BENCH_SEALED_COOKIE=1: the cookie as builds before the plain session cookie wanted it (iron-session's seal).
  const cookie = `${SESSION_COOKIE}=${process.env.BENCH_SEALED_COOKIE ? await sealData({ sid: secret }, { password: BENCH_SESSION_SECRET }) : secret}`;
  return { cookie, phone, deepCursor };
}

/** The four variants the targets are set on, for a store's orders page at `base`. */
export function ordersVariants(base: string, phone: string, deepCursor: string) {
  return [
    { key: "firstPage", label: "first page", url: base },
    { key: "statusFilter", label: "?status=shipped", url: `${base}?status=shipped` },
    { key: "phoneFilter", label: "?phone= (20 orders)", url: `${base}?phone=${phone}` },
    { key: "deepPage", label: "cursor page 50,000 deep", url: `${base}?cursor=${deepCursor}` },
  ];
}

type Timing = { median: number; p95: number; bytes: number; cpuMs: number };

/**
 * Sequential requests (one merchant clicking), each read to the end: the time a browser waits for the HTML.
 * Requests alternate between the app's variant and the floor page, so both see the same machine.
 */
async function timeAgainstFloor(
  url: string,
  floorUrl: string,
  cookie: string,
  expect: string,
  pids: { app: number; floor: number },
): Promise<{ app: Timing; floor: Timing }> {
  const app: number[] = [];
  let appCpu = 0;
  let floorCpu = 0;
  const floor: number[] = [];
  let appBytes = 0;
  let floorBytes = 0;
  const once = async (target: string, headers: Record<string, string>, marker: string) => {
    const started = performance.now();
    const response = await fetch(target, { headers });
    const body = await response.text();
    const elapsed = performance.now() - started;
    if (response.status !== 200 || !body.includes(marker)) {
      throw new Error(`GET ${new URL(target).pathname}${new URL(target).search} answered ${response.status} without "${marker}"`);
    }
    return { elapsed, bytes: Buffer.byteLength(body) };
  };
  for (let index = 0; index < WARMUP + REQUESTS; index++) {
    const before = cpuMs(pids.app);
    const ours = await once(url, { cookie }, expect);
    const between = cpuMs(pids.floor);
    const theirs = await once(floorUrl, {}, "ORD-101-");
    if (index >= WARMUP) {
      app.push(ours.elapsed);
      floor.push(theirs.elapsed);
      // Each server's CPU across its own request (the other side idle meanwhile): far steadier than time under load.
      appCpu += cpuMs(pids.app) - before;
      floorCpu += cpuMs(pids.floor) - between;
    }
    appBytes = ours.bytes;
    floorBytes = theirs.bytes;
  }
  app.sort((a, b) => a - b);
  floor.sort((a, b) => a - b);
  return {
    app: { median: percentile(app, 50), p95: percentile(app, 95), bytes: appBytes, cpuMs: appCpu / REQUESTS },
    floor: { median: percentile(floor, 50), p95: percentile(floor, 95), bytes: floorBytes, cpuMs: floorCpu / REQUESTS },
  };
}

/** HTML of a page of 50 rows (document plus inline RSC payload) beyond the same page with no rows. */
async function bytesPerRow(fullUrl: string, emptyUrl: string, cookie: string): Promise<number> {
  const size = async (url: string) => Buffer.byteLength(await (await fetch(url, { headers: { cookie } })).text());
  return (await size(fullUrl)) - (await size(emptyUrl));
}

const round = (ms: number) => Math.round(ms * 10) / 10;

export async function benchOrdersPage(): Promise<BenchResult> {
  for (const dir of [BENCH_DIST_DIR, path.join(REFERENCE_DIR, ".next-bench")]) {
    if (!existsSync(path.join(dir, "BUILD_ID"))) throw new Error(`no production build in ${dir}: npm run bench builds it`);
  }
  const database = await benchDatabase("bench_orders");
  let app: ChildProcess | null = null;
  let floorApp: ChildProcess | null = null;
  try {
    const seedStarted = performance.now();
    const { cookie, phone, deepCursor } = await prepareOrdersDatabase(database.url);
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const [port, floorPort] = [await freePort(), await freePort()];
    app = startNext(database.url, port);
    floorApp = startReference(database.url, floorPort);
    const base = `http://127.0.0.1:${port}/stores/${STORE}/orders`;
    const floorUrl = `http://127.0.0.1:${floorPort}/rows`;
    await Promise.all([
      waitForStatus(base, app, [200], { headers: { cookie } }),
      waitForStatus(floorUrl, floorApp, [200]),
    ]);

    const variants = ordersVariants(base, phone, deepCursor);
    const figures: Record<string, number> = { orders: ORDERS, requests: REQUESTS };
    const lines: string[] = [
      `${ORDERS.toLocaleString("en-US")} orders in one store (+${Math.round(ORDERS / 10).toLocaleString("en-US")} in another), seeded in ${seedSeconds.toFixed(1)} s; ${REQUESTS} sequential requests per variant after ${WARMUP} warm-up, each followed by one to the floor page`,
    ];
    for (const variant of variants) {
      const { app: ours, floor } = await timeAgainstFloor(variant.url, floorUrl, cookie, `ORD-${STORE}-`, { app: app.pid!, floor: floorApp.pid! });
      const ratio = ours.p95 / floor.p95;
      const medianRatio = ours.median / floor.median;
      figures[`${variant.key}MedianRatio`] = Number(medianRatio.toFixed(2));
      figures[`${variant.key}MedianMs`] = round(ours.median);
      figures[`${variant.key}P95Ms`] = round(ours.p95);
      figures[`${variant.key}FloorP95Ms`] = round(floor.p95);
      figures[`${variant.key}P95Ratio`] = Number(ratio.toFixed(2));
      figures[`${variant.key}CpuMs`] = round(ours.cpuMs);
      figures[`${variant.key}FloorCpuMs`] = round(floor.cpuMs);
      lines.push(
        `${variant.label}: median ${round(ours.median)} ms, p95 ${round(ours.p95)} ms; floor page p95 ${round(floor.p95)} ms (median ${round(floor.median)} ms): ` +
          `p95 ${ratio.toFixed(2)}x (target ≤ ${TARGET_P95_RATIO}x, ${ratio <= TARGET_P95_RATIO ? "met" : "NOT met"}), median ${medianRatio.toFixed(2)}x (target ≤ ${TARGET_P95_RATIO}x, ${medianRatio <= TARGET_P95_RATIO ? "met" : "NOT met"}); ` +
          `${(ours.bytes / 1024).toFixed(1)} kB of HTML (floor ${(floor.bytes / 1024).toFixed(1)} kB); ` +
          `server CPU ${ours.cpuMs.toFixed(1)} ms a request (floor ${floor.cpuMs.toFixed(1)} ms: ${(ours.cpuMs / floor.cpuMs).toFixed(2)}x)`,
      );
    }
    // A phone no order has: the same page with the table left out.
    const perRow = (await bytesPerRow(base, `${base}?phone=0999999999`, cookie)) / ROWS_PER_PAGE;
    figures.htmlBytesPerRow = Math.round(perRow);
    lines.push(
      `HTML per row, RSC payload included: ${Math.round(perRow)} bytes (first page minus an empty result, / 50; target ≤ ${TARGET_BYTES_PER_ROW}, ${perRow <= TARGET_BYTES_PER_ROW ? "met" : "NOT met"})`,
    );
    return { title: "Orders page server response (production build, PostgreSQL)", lines, figures };
  } finally {
    await Promise.all([stopProcess(app), stopProcess(floorApp)]);
    await database.drop();
  }
}
