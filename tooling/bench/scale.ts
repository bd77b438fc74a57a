/**
 * Scale benchmark (`npm run bench -- scale`): does a figure stay flat as the data grows? Two databases on the
 * machine's PostgreSQL, each served by its own `next start` of the production build:
 * - large: 10,000,000 orders over 1,000 stores (100,000 of them in the store measured, spread evenly through time
 *   among the others' rows, as a busy platform interleaves them) and 10,000,000 stored webhook event ids over 31 days;
 * - small: the measured store's same 100,000 orders alone, and no event ids.
 * Requests alternate between the two, so load from elsewhere on the machine hits both alike.
 *
 * Targets, as ratios within the run: orders page p95 (first page, status filter, deep cursor) at most 1.2x the small
 * database's; webhook throughput at least 0.9x; webhook p99 while the retention purge deletes a day of event ids at
 * most 2x the p99 without it. Then EXPLAIN (ANALYZE, BUFFERS) of the hot statements, captured from the real query
 * functions, so the docs show the plans the app runs.
 *
 * The large database is seeded straight in SQL (generate_series; secondary keys dropped and rebuilt around the load,
 * as a bulk load should), once: it lives in a database of its own (bench_scale) that `--keep-scale-db` keeps for the
 * next run, which then skips seeding. Without the flag it is dropped at the end. Not part of `npm test`.
 */
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { openDatabase, type Db } from "@/db/client";
import { encodeOrderCursor, ordersPageQuery } from "@/db/queries/order-views";
import { claimEvent, deleteStoreEventsBefore, storesWithEvents } from "@/db/queries/webhook-events";
import * as schema from "@/db/schema";
import { phoneKey } from "@/lib/phone";
import { signIn } from "@/lib/session-lifecycle";
import { EVENT_PURGE_BATCH, purgeUninstalledStores } from "@/lib/webhooks/retention";
import { BENCH_DIST_DIR, benchDatabase, freePort, percentile, startNext, stopProcess, waitForStatus } from "./support";
import type { BenchResult } from "./types";
import { deliveries, drive, type Sample } from "./webhooks";
import { migrateDatabase } from "@/lib/database/migrate";

const SERVER_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const SCALE_DB = "bench_scale";
const KEEP = process.argv.includes("--keep-scale-db");
const TOTAL_ORDERS = Number(process.env.BENCH_SCALE_ORDERS ?? 10_000_000);
const EVENT_IDS = Number(process.env.BENCH_SCALE_EVENTS ?? 10_000_000);
const STORE_COUNT = 1000;
const MEASURED = 101;
const MEASURED_ORDERS = 100_000;
/** Every STEP-th order belongs to the measured store. */
const STEP = Math.max(1, Math.round(TOTAL_ORDERS / MEASURED_ORDERS));
const WEBHOOK_STORE = 500;
const CHUNK = 500_000;
/** Event ids are spread over EVENT_DAYS days from EVENT_ANCHOR; the purge forgets the first day. */
const EVENT_ANCHOR = "2026-01-01T00:00:00Z";
const EVENT_DAYS = 31;
const DAY_MS = 86_400_000;
const REQUESTS = Number(process.env.BENCH_SCALE_REQUESTS ?? 200);
const WARMUP = 20;
const WEBHOOK_EVENTS = Number(process.env.BENCH_SCALE_WEBHOOK_EVENTS ?? 1500);
const ROUNDS = 3;
const SESSION_COOKIE = "app_session";

const fmt = (n: number) => n.toLocaleString("en-US");
const ms = (n: number) => Math.round(n * 10) / 10;

function databaseUrl(name: string): string {
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** One orders row per n; the measured store's rows (n % STEP = 0) are the same in both databases. */
function ordersInsert(from: number, to: number, measuredOnly: boolean): string {
  const series = measuredOnly
    ? `select k * ${STEP} as n from generate_series(${from}, ${to}) as k`
    : `select n from generate_series(${from}, ${to}) as n`;
  return `
    insert into orders (store_id, id, order_number, store_seq, status, payment_status, payment_method, delivery_type,
                        customer_name, customer_phone, customer_phone_key, wilaya_id, wilaya_name, commune, address,
                        subtotal, shipping_cost, discount, total, created_at, updated_at)
    select store_id, n, 'ORD-' || store_id || '-' || lpad(to_hex(n), 8, '0'), k,
           (array['pending','confirmed','processing','shipped','delivered','cancelled','returned'])[1 + k % 7],
           -- A national number is its own phone key (lib/phone.ts phoneKey).
           'unpaid', 'cod', 'home', 'Client ' || k, '05' || lpad((k % 5000)::text, 8, '0'), '05' || lpad((k % 5000)::text, 8, '0'),
           1 + k % 58, (array['الجزائر','وهران','قسنطينة','البليدة','سطيف'])[1 + k % 5], 'Centre', 'Rue ' || k,
           1000 + k % 9000, 400, 0, 1400 + k % 9000, ts, ts
    from (select n,
                 case when n % ${STEP} = 0 then ${MEASURED}
                      else 1 + (n % ${STORE_COUNT - 1}) + (case when 1 + (n % ${STORE_COUNT - 1}) >= ${MEASURED} then 1 else 0 end) end as store_id,
                 case when n % ${STEP} = 0 then n / ${STEP} else n end as k,
                 timestamptz '2024-11-01' + n * interval '6 seconds' as ts
          from (${series}) as s) as rows`;
}

function eventsInsert(from: number, to: number): string {
  return `
    insert into webhook_events (id, event, store_id, delivery_id, received_at)
    select 'evt_' || substr(md5(n::text), 1, 24),
           (array['order.created','order.updated','order.status_changed'])[1 + n % 3],
           1 + n % ${STORE_COUNT}, 'dlv_' || n,
           timestamptz '${EVENT_ANCHOR}' + (n::float8 / ${EVENT_IDS}) * interval '${EVENT_DAYS} days'
    from generate_series(${from}, ${to}) as n
    on conflict do nothing`;
}

type Sql = ReturnType<typeof postgres>;

/**
 * Keys other than what a load needs are dropped before it and rebuilt after it, from definitions kept in a table
 * so an interrupted seed resumes where it stopped.
 */
async function dropKeys(sql: Sql, table: string): Promise<void> {
  await sql.unsafe(`
    insert into bench_seed_keys (table_name, name, is_constraint, definition)
    select '${table}', c.conname, true, pg_get_constraintdef(c.oid) from pg_constraint c
      where c.conrelid = '${table}'::regclass and c.contype in ('p', 'u')
    union all
    select '${table}', i.indexname, false, i.indexdef from pg_indexes i
      where i.tablename = '${table}' and i.schemaname = 'public'
        and not exists (select 1 from pg_constraint c where c.conname = i.indexname and c.conrelid = '${table}'::regclass)
    on conflict do nothing`);
  const keys = await sql<{ name: string; is_constraint: boolean }[]>`
    select name, is_constraint from bench_seed_keys where table_name = ${table}`;
  for (const key of keys) {
    await sql.unsafe(
      key.is_constraint ? `alter table ${table} drop constraint if exists ${key.name}` : `drop index if exists ${key.name}`,
    );
  }
}

async function rebuildKeys(sql: Sql, table: string): Promise<void> {
  const keys = await sql<{ name: string; is_constraint: boolean; definition: string }[]>`
    select name, is_constraint, definition from bench_seed_keys where table_name = ${table} order by is_constraint desc`;
  for (const key of keys) {
    const started = performance.now();
    await sql.unsafe(key.is_constraint ? `alter table ${table} add constraint ${key.name} ${key.definition}` : key.definition);
    await sql`delete from bench_seed_keys where table_name = ${table} and name = ${key.name}`;
    console.log(`    rebuilt ${key.name} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
}

/** Loads rows [1, total] in chunks, resuming after the last chunk committed. */
async function load(sql: Sql, part: string, total: number, insert: (from: number, to: number) => string): Promise<void> {
  const [state] = await sql<{ upto: number; done: boolean }[]>`select upto::float8 as upto, done from bench_seed where part = ${part}`;
  if (state?.done) {
    console.log(`  ${part}: already seeded (${fmt(total)} rows), skipped`);
    return;
  }
  const table = part === "orders" ? "orders" : "webhook_events";
  await dropKeys(sql, table);
  const started = performance.now();
  for (let from = (state?.upto ?? 0) + 1; from <= total; from += CHUNK) {
    const to = Math.min(total, from + CHUNK - 1);
    await sql.begin(async (tx) => {
      await tx.unsafe(insert(from, to));
      await tx`insert into bench_seed (part, upto) values (${part}, ${to})
               on conflict (part) do update set upto = excluded.upto`;
    });
    const seconds = (performance.now() - started) / 1000;
    console.log(`  ${part}: ${fmt(to)} / ${fmt(total)} rows (${seconds.toFixed(0)} s)`);
  }
  console.log(`  ${part}: rebuilding keys …`);
  await rebuildKeys(sql, table);
  await sql.unsafe(`vacuum analyze ${table}`);
  await sql`update bench_seed set done = true where part = ${part}`;
}

export async function ensureLargeDatabase(): Promise<void> {
  const admin = postgres(SERVER_URL, { max: 1, onnotice: () => {} });
  try {
    const [exists] = await admin`select 1 from pg_database where datname = ${SCALE_DB}`;
    if (!exists) await admin.unsafe(`create database ${SCALE_DB}`);
  } finally {
    await admin.end();
  }
  const handle = await openDatabase({ url: databaseUrl(SCALE_DB), maxConnections: 1 });
  await migrateDatabase(handle);
  await handle.close();
  const sql = postgres(databaseUrl(SCALE_DB), { max: 1, onnotice: () => {} });
  try {
    await sql`set synchronous_commit = off`;
    await sql`set maintenance_work_mem = '512MB'`;
    await sql`create table if not exists bench_seed (part text primary key, upto bigint not null, done boolean not null default false)`;
    await sql`create table if not exists bench_seed_keys (table_name text, name text, is_constraint boolean, definition text, primary key (table_name, name))`;
    await sql`
      insert into installs (store_id, install_id, store_name, scopes, token_ciphertext, token_key_id)
      select s, 9000 + s, 'Bench store ' || s, '{orders:read}', 'not-a-real-token', 'bench' from generate_series(1, ${STORE_COUNT}::int) as s
      on conflict do nothing`;
    console.log(`  seeding ${SCALE_DB}: ${fmt(TOTAL_ORDERS)} orders over ${STORE_COUNT} stores, ${fmt(EVENT_IDS)} event ids`);
    await load(sql, "orders", TOTAL_ORDERS, (from, to) => ordersInsert(from, to, false));
    await load(sql, "webhook_events", EVENT_IDS, eventsInsert);
  } finally {
    await sql.end();
  }
}

async function seedSmall(url: string): Promise<void> {
  const handle = await openDatabase({ url, maxConnections: 1 });
  await migrateDatabase(handle);
  await handle.close();
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`
      insert into installs (store_id, install_id, store_name, scopes, token_ciphertext, token_key_id)
      select s, 9000 + s, 'Bench store ' || s, '{orders:read}', 'not-a-real-token', 'bench' from unnest(array[${MEASURED}, ${WEBHOOK_STORE}]::int[]) as s`;
    await sql.unsafe(ordersInsert(1, MEASURED_ORDERS, true));
    await sql`vacuum analyze orders`;
  } finally {
    await sql.end();
  }
}

/** The measured store's session cookie and its cursor 50,000 rows deep, in one database. */
async function sessionAndCursor(url: string): Promise<{ cookie: string; deepCursor: string }> {
  const handle = await openDatabase({ url, maxConnections: 1 });
  try {
    const { secret } = await signIn(handle.db, { previousId: null, storeIds: [MEASURED], now: new Date() });
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    try {
      const [deep] = await sql<{ micros: string; id: string }[]>`
        select ((extract(epoch from created_at) * 1000000)::bigint)::text as micros, id::text as id
        from orders where store_id = ${MEASURED} order by created_at desc, id desc offset ${MEASURED_ORDERS / 2} limit 1`;
      if (!deep) throw new Error("the measured store has no orders");
      return { cookie: `${SESSION_COOKIE}=${secret}`, deepCursor: encodeOrderCursor({ createdAtMicros: deep.micros, id: Number(deep.id) }) };
    } finally {
      await sql.end();
    }
  } finally {
    await handle.close();
  }
}

type Side = { name: "large" | "small"; url: string; server: ChildProcess | null; base: string; cookie: string; deepCursor: string };

async function timePage(sides: [Side, Side], query: (side: Side) => string): Promise<{ median: number; p95: number }[]> {
  const times: number[][] = [[], []];
  for (let index = 0; index < WARMUP + REQUESTS; index++) {
    for (let which = 0; which < 2; which++) {
      const side = sides[which]!;
      const target = `${side.base}/stores/${MEASURED}/orders${query(side)}`;
      const started = performance.now();
      const response = await fetch(target, { headers: { cookie: side.cookie } });
      const body = await response.text();
      const elapsed = performance.now() - started;
      if (response.status !== 200 || !body.includes(`ORD-${MEASURED}-`)) throw new Error(`${side.name}: GET ${target} answered ${response.status} without orders`);
      if (index >= WARMUP) times[which]!.push(elapsed);
    }
  }
  return times.map((list) => {
    list.sort((a, b) => a - b);
    return { median: percentile(list, 50), p95: percentile(list, 95) };
  });
}

function rate(samples: Sample[]): { perSecond: number; p99: number; failures: number } {
  const latencies = samples.flatMap((sample) => sample.latencies).sort((a, b) => a - b);
  const seconds = samples.reduce((sum, sample) => sum + sample.seconds, 0);
  const events = samples.reduce((sum, sample) => sum + sample.events, 0);
  return { perSecond: events / seconds, p99: percentile(latencies, 99), failures: samples.reduce((sum, sample) => sum + sample.failures, 0) };
}

class Captured extends Error {
  constructor(
    readonly query: string,
    readonly params: unknown[],
  ) {
    super("captured");
  }
}

/** The statement a query function sends, without running it: the logger throws before the driver executes. */
async function capture(sql: Sql, run: (db: Db) => Promise<unknown>): Promise<Captured> {
  const db = drizzle(sql, {
    schema,
    logger: {
      logQuery(query, params) {
        throw new Captured(query, params);
      },
    },
  }) as unknown as Db;
  try {
    await run(db);
  } catch (error) {
    if (error instanceof Captured) return error;
    throw error;
  }
  throw new Error("the query function sent no statement");
}

/** EXPLAIN of each hot statement; ANALYZE inside a transaction that is rolled back, except for the purge delete. */
async function explainHot(url: string, deepCursor: string): Promise<string[]> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  // The orders page's statement is written out (db/queries/order-views.ts): explained as it stands, not captured.
  const written = (statement: { text: string; params: unknown[] }) => async () => {
    throw new Captured(statement.text, statement.params);
  };
  const hot: { label: string; analyze: boolean; run: (db: Db) => Promise<unknown> }[] = [
    { label: "orders page, first page (listOrdersPage)", analyze: true, run: written(ordersPageQuery(MEASURED, {}, 51)) },
    { label: "orders page, ?status=shipped", analyze: true, run: written(ordersPageQuery(MEASURED, { status: "shipped" }, 51)) },
    { label: "orders page, ?phone=", analyze: true, run: written(ordersPageQuery(MEASURED, { phoneKey: phoneKey("0500000042") }, 51)) },
    { label: "orders page, cursor 50,000 deep", analyze: true, run: written(ordersPageQuery(MEASURED, { cursor: deepCursor }, 51)) },
    {
      label: "webhook: claim the event id (claimEvent)",
      analyze: true,
      run: (db) => claimEvent(db, { id: "evt_explain0000000000000000", event: "order.created", storeId: WEBHOOK_STORE }),
    },
    { label: "retention purge: the stores holding event ids (storesWithEvents)", analyze: true, run: (db) => storesWithEvents(db) },
    {
      label: "retention purge: one batch of a store's event ids past retention (deleteStoreEventsBefore)",
      analyze: true,
      run: (db) => deleteStoreEventsBefore(db, MEASURED, new Date(Date.parse(EVENT_ANCHOR) + DAY_MS), EVENT_PURGE_BATCH),
    },
  ];
  const out: string[] = [];
  try {
    for (const item of hot) {
      const { query, params } = await capture(sql, item.run);
      const plan = await sql
        .begin(async (tx) => {
          const rows = await tx.unsafe(`explain (${item.analyze ? "analyze, buffers, " : ""}costs off) ${query}`, params as never[]);
          throw Object.assign(new Error("rollback"), { rows });
        })
        .catch((error: { rows?: { "QUERY PLAN": string }[] }) => {
          if (!error.rows) throw error;
          return error.rows.map((row) => row["QUERY PLAN"]);
        });
      out.push(`${item.label}${item.analyze ? "" : " (EXPLAIN without ANALYZE: it would delete)"}:`, "```", query, ...plan, "```");
    }
  } finally {
    await sql.end();
  }
  return out;
}

export async function benchScale(): Promise<BenchResult> {
  if (!existsSync(path.join(BENCH_DIST_DIR, "BUILD_ID"))) throw new Error(`no production build in ${BENCH_DIST_DIR}: npm run bench builds it`);
  const seedStarted = performance.now();
  await ensureLargeDatabase();
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  const small = await benchDatabase("bench_scale_small");
  const servers: ChildProcess[] = [];
  try {
    await seedSmall(small.url);
    const sides = [] as unknown as [Side, Side];
    for (const [name, url] of [
      ["large", databaseUrl(SCALE_DB)],
      ["small", small.url],
    ] as const) {
      const { cookie, deepCursor } = await sessionAndCursor(url);
      const port = await freePort();
      // No job worker: it would poll the large side's 1,000 seeded stores (whose tokens no key opens) while the
      // pages and webhooks are timed, and the small side's two, so the sides would differ by more than their tables.
      const server = startNext(url, port, { JOBS_WORKER: "off" });
      servers.push(server);
      sides.push({ name, url, server, base: `http://127.0.0.1:${port}`, cookie, deepCursor });
    }
    await Promise.all(sides.map((side) => waitForStatus(`${side.base}/stores/${MEASURED}/orders`, side.server!, [200], { headers: { cookie: side.cookie } })));

    const lines: string[] = [
      `large: ${fmt(TOTAL_ORDERS)} orders over ${STORE_COUNT} stores (${fmt(MEASURED_ORDERS)} in the store measured, one row in ${STEP} through time) and ${fmt(EVENT_IDS)} event ids over ${EVENT_DAYS} days (${seedSeconds.toFixed(0)} s to seed or find); small: the same ${fmt(MEASURED_ORDERS)} orders alone, no event ids`,
    ];
    const figures: Record<string, number> = { orders: TOTAL_ORDERS, eventIds: EVENT_IDS };
    const variants = [
      { key: "firstPage", label: "first page", query: () => "" },
      { key: "statusFilter", label: "?status=shipped", query: () => "?status=shipped" },
      { key: "deepPage", label: "cursor page 50,000 deep", query: (side: Side) => `?cursor=${side.deepCursor}` },
    ];
    for (const variant of variants) {
      const [large, smallTiming] = await timePage(sides, variant.query);
      const ratio = large!.p95 / smallTiming!.p95;
      figures[`${variant.key}P95Ratio`] = Number(ratio.toFixed(2));
      lines.push(
        `orders page ${variant.label}: p95 ${ms(large!.p95)} ms at ${fmt(TOTAL_ORDERS)} orders vs ${ms(smallTiming!.p95)} ms at ${fmt(MEASURED_ORDERS)} (medians ${ms(large!.median)} / ${ms(smallTiming!.median)} ms): ` +
          `${ratio.toFixed(2)}x (target ≤ 1.2x, ${ratio <= 1.2 ? "met" : "NOT met"})`,
      );
    }

    // Webhooks: the same load on both, rounds alternating.
    const hooks = sides.map((side) => new URL(`${side.base}/api/webhooks`));
    let nextOrder = 50_000_000 + (Date.now() % 1_000_000) * 10;
    const batch = (count: number) => {
      const list = deliveries(WEBHOOK_STORE, count, nextOrder);
      nextOrder += count;
      return list;
    };
    for (const hook of hooks) await drive(hook, batch(300));
    const samples: Sample[][] = [[], []];
    const perRound = Math.ceil(WEBHOOK_EVENTS / ROUNDS);
    for (let round = 0; round < ROUNDS; round++) {
      for (const which of round % 2 === 0 ? [0, 1] : [1, 0]) samples[which]!.push(await drive(hooks[which]!, batch(perRound)));
    }
    const [large, empty] = samples.map(rate) as [ReturnType<typeof rate>, ReturnType<typeof rate>];
    const throughputRatio = large.perSecond / empty.perSecond;
    figures.webhookThroughputRatio = Number(throughputRatio.toFixed(2));
    lines.push(
      `webhooks with ${fmt(EVENT_IDS)} event ids stored: ${large.perSecond.toFixed(0)} events/s, p99 ${ms(large.p99)} ms; empty table: ${empty.perSecond.toFixed(0)} events/s, p99 ${ms(empty.p99)} ms ` +
        `(${large.failures + empty.failures} non-2xx): throughput ${throughputRatio.toFixed(2)}x (target ≥ 0.9x, ${throughputRatio >= 0.9 ? "met" : "NOT met"})`,
    );

    // The retention purge of one day of event ids, with webhooks arriving all along.
    const largeSql = postgres(databaseUrl(SCALE_DB), { max: 2, onnotice: () => {} });
    try {
      const quiet = rate([await drive(hooks[0]!, batch(WEBHOOK_EVENTS))]);
      const purgeDb = drizzle(largeSql, { schema }) as unknown as Db;
      let purging = true;
      const purgeStarted = performance.now();
      const purge = purgeUninstalledStores(purgeDb, { now: new Date(Date.parse(EVENT_ANCHOR) + EVENT_DAYS * DAY_MS) }).finally(() => {
        purging = false;
      });
      const during: Sample[] = [];
      // Bounded: at most 40 batches, whatever the purge does.
      for (let index = 0; purging && index < 40; index++) during.push(await drive(hooks[0]!, batch(300)));
      const purged = await purge;
      const purgeSeconds = (performance.now() - purgeStarted) / 1000;
      const loaded = rate(during);
      const p99Ratio = loaded.p99 / quiet.p99;
      figures.purgeSeconds = Number(purgeSeconds.toFixed(1));
      figures.purgeP99Ratio = Number(p99Ratio.toFixed(2));
      lines.push(
        `retention purge of one day (${fmt(purged.events)} event ids) took ${purgeSeconds.toFixed(1)} s; webhooks during it: ${loaded.perSecond.toFixed(0)} events/s, p99 ${ms(loaded.p99)} ms ` +
          `(${during.reduce((sum, sample) => sum + sample.events, 0)} events) vs ${quiet.perSecond.toFixed(0)} events/s, p99 ${ms(quiet.p99)} ms without: p99 ${p99Ratio.toFixed(2)}x (target ≤ 2x, ${p99Ratio <= 2 ? "met" : "NOT met"})`,
      );
      // Put the day back, so a kept database stays at its size for the next run.
      await largeSql.unsafe(eventsInsert(1, Math.ceil(EVENT_IDS / EVENT_DAYS) + 1));
    } finally {
      await largeSql.end();
    }
    const plans = await explainHot(databaseUrl(SCALE_DB), sides[0].deepCursor);
    return { title: `Scale: ${fmt(TOTAL_ORDERS)} orders and ${fmt(EVENT_IDS)} event ids against ${fmt(MEASURED_ORDERS)} orders and none (PostgreSQL)`, lines, figures, details: plans };
  } finally {
    await Promise.all(servers.map((server) => stopProcess(server)));
    await small.drop();
    if (!KEEP) {
      const admin = postgres(SERVER_URL, { max: 1, onnotice: () => {} });
      try {
        await admin.unsafe(`drop database if exists ${SCALE_DB} with (force)`);
        console.log(`  dropped ${SCALE_DB} (--keep-scale-db keeps it for the next run)`);
      } finally {
        await admin.end();
      }
    }
  }
}
