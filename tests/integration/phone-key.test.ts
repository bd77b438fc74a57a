import { cp, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATIONS_FOLDER, rawQuery, type DatabaseHandle } from "@/db/client";
import { applyOrderEvent } from "@/db/queries/order-events";
import { listOrdersPage } from "@/db/queries/order-views";
import { upsertOrder } from "@/db/queries/orders";
import { createScratchDatabase, type ScratchDatabase } from "@/db/scratch";
import { withOrderHistory } from "@/lib/customers/customers-page";
import { openAppDatabase } from "@/lib/database/open";
import { orderListOptions, parseOrderFilters } from "@/lib/orders/filters";
import { phoneKey } from "@/lib/phone";
import { parsePlatformOrder, type Customer } from "@/lib/platform";
import { newEventId, sampleOrderData } from "@/lib/webhooks/samples";

/**
 * One phone key (orders.customer_phone_key, lib/phone.ts phoneKey): every spelling of a number counts for one
 * customer and appears under one phone filter, for rows the migration filled (written before the key existed) as
 * for rows the write paths store (a webhook's statement, the poller's and the import's upsert). The database starts
 * at the migration before the key, takes old-shape rows, then migrates: the migration's SQL and the TypeScript rule
 * must give the same key to every spelling of the table below.
 */

const STORE = 101;
const OTHER_STORE = 102;

/** The migration that added the key: everything before it makes the old shape. */
const KEY_MIGRATION = "0005_phone_key";

/** Spellings and the key each must have, whichever side computes it. */
const SPELLINGS: [string, string | null][] = [
  ["0551234567", "0551234567"],
  ["+213551234567", "0551234567"],
  ["00213 55 12 34 567", "0551234567"],
  ["213551234567", "0551234567"],
  ["00213551234567", "0551234567"],
  ["0550 12 34 56", "0550123456"],
  ["+213-550-12-34-56", "0550123456"],
  ["+213 (0) 550 12 34 56", "0550123456"],
  ["0550.12.34.56", "0550123456"],
  ["(0550) 12-34-56", "0550123456"],
  ["+213 0550123456", "0550123456"],
  ["\u200f+213 550 12 34 56", "0550123456"],
  ["٠٥٥٠١٢٣٤٥٦", "0550123456"],
  ["۰۵۵۰ ۱۲ ۳۴ ۵۶", "0550123456"],
  // A landline: 8 digits after the trunk 0.
  ["021 23 45 67", "021234567"],
  ["+213 21 23 45 67", "021234567"],
  // Not Algerian: the digits as they are (Los Angeles' 213 area code is not Algeria's 213).
  ["+33 6 12 34 56 78", "33612345678"],
  ["0033 6 12 34 56 78", "0033612345678"],
  ["+1 (213) 555-1234", "12135551234"],
  ["213-555-1234", "2135551234"],
  // 213 followed by a national number starting with 0 is no Algerian number.
  ["21305512345", "21305512345"],
  ["0551", "0551"],
  ["ext. 12", "12"],
  ["no phone", null],
  ["   ", null],
  ["", null],
];

/** The two customers, the statuses of their orders, and each order's spelling. */
const FIRST = "0551234567";
const SECOND = "0550123456";
const OLD_ROWS: [string, string][] = [
  ["0551234567", "delivered"],
  ["+213551234567", "returned"],
  ["00213 55 12 34 567", "delivered"],
  ["213551234567", "returned"],
  ["00213551234567", "delivered"],
  ["0550123456", "delivered"],
  ["0550 12 34 56", "delivered"],
  ["+213-550-12-34-56", "returned"],
  ["+213 (0) 550 12 34 56", "shipped"],
];
/** Written after the migration, through the write paths: [spelling, status, path]. */
const NEW_ROWS: [string, string, "webhook" | "poll"][] = [
  ["+213 551 23 45 67", "pending", "webhook"],
  ["0551-23-45-67", "confirmed", "poll"],
  ["00213 (0) 550 12 34 56", "returned", "webhook"],
  ["+213.550.12.34.56", "delivered", "poll"],
];
/** Every spelling any order of the two customers has, typed into the filter. */
const TYPED = [...new Set([...OLD_ROWS, ...NEW_ROWS].map(([spelling]) => spelling))];

let handle: DatabaseHandle;
let scratch: ScratchDatabase | undefined;
let oldFolder: string;
let nextId = 1;

/** A migrations folder holding only the migrations before the key, as a database released before it was migrated. */
async function migrationsBeforeKey(): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), "phone-key-migrations-"));
  const journal = JSON.parse(await readFile(path.join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as { entries: { tag: string; idx: number }[] };
  const cut = journal.entries.findIndex((entry) => entry.tag === KEY_MIGRATION);
  if (cut < 0) throw new Error(`no migration ${KEY_MIGRATION}`);
  const kept = journal.entries.slice(0, cut);
  await cp(path.join(MIGRATIONS_FOLDER, "meta"), path.join(folder, "meta"), { recursive: true });
  await writeFile(path.join(folder, "meta", "_journal.json"), JSON.stringify({ ...journal, entries: kept }));
  for (const file of await readdir(MIGRATIONS_FOLDER)) {
    if (kept.some((entry) => file === `${entry.tag}.sql`)) await cp(path.join(MIGRATIONS_FOLDER, file), path.join(folder, file));
  }
  return folder;
}

async function openEmptyDatabase(): Promise<DatabaseHandle> {
  const serverUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!serverUrl) return openAppDatabase({ embedded: "memory" });
  scratch = await createScratchDatabase(serverUrl, "starter_test");
  return openAppDatabase({ url: scratch.url });
}

function createdAt(id: number): Date {
  return new Date(Date.UTC(2026, 10, 1) + id * 60_000);
}

/** An order row as the app stored it before the key existed: no customer_phone_key column to write. */
async function insertOldRow(storeId: number, phone: string | null, status: string): Promise<void> {
  const id = nextId++;
  await rawQuery(handle.db)(
    `insert into orders (store_id, id, order_number, status, customer_phone, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $6)`,
    [storeId, id, `ORD-${storeId}-${id}`, status, phone, createdAt(id).toISOString()],
  );
}

async function writeNewRow(storeId: number, phone: string, status: string, through: "webhook" | "poll"): Promise<void> {
  const id = nextId++;
  const order = parsePlatformOrder(sampleOrderData({ storeId, orderId: id, status, customerPhone: phone, createdAt: createdAt(id) }));
  if (through === "poll") {
    await upsertOrder(handle.db, storeId, order);
    return;
  }
  const result = await applyOrderEvent(rawQuery(handle.db), {
    eventId: newEventId(),
    event: "order.created",
    storeId,
    deliveryId: null,
    order,
    status,
    previousStatus: null,
  });
  expect(result).toMatchObject({ claimed: true, installed: true, outcome: "inserted" });
}

function customer(id: number, phone: string | null): Customer {
  return { id: String(id), name: null, phone, email: null, extra: {} };
}

async function filtered(storeId: number, typed: string) {
  const page = await listOrdersPage(handle.db, storeId, { ...orderListOptions(parseOrderFilters({ phone: typed })), limit: 200 });
  return page.rows.map((row) => row.customerPhone).sort();
}

beforeAll(async () => {
  handle = await openEmptyDatabase();
  oldFolder = await migrationsBeforeKey();
  if (handle.kind === "server") await migratePostgres(handle.db as never, { migrationsFolder: oldFolder });
  else await migratePglite(handle.db as never, { migrationsFolder: oldFolder });
  const columns = await rawQuery(handle.db)<{ column_name: string }>(
    "select column_name from information_schema.columns where table_name = 'orders' and column_name = 'customer_phone_key'",
    [],
  );
  expect(columns).toEqual([]);

  for (const [store, installId] of [[STORE, 1], [OTHER_STORE, 2]] as const) {
    await rawQuery(handle.db)("insert into installs (store_id, install_id, store_name) values ($1, $2, $3)", [store, installId, `Store ${store}`]);
  }
  for (const [spelling] of SPELLINGS) await insertOldRow(OTHER_STORE, spelling, "pending");
  await insertOldRow(OTHER_STORE, null, "pending");
  for (const [spelling, status] of OLD_ROWS) await insertOldRow(STORE, spelling, status);
  // The same number in another store counts nothing in this one.
  await insertOldRow(OTHER_STORE, FIRST, "returned");

  await handle.migrateTables();

  for (const [spelling, status, through] of NEW_ROWS) await writeNewRow(STORE, spelling, status, through);
}, 120_000);

afterAll(async () => {
  await handle?.close();
  await scratch?.drop();
  if (oldFolder) await rm(oldFolder, { recursive: true, force: true });
});

describe("one phone key", () => {
  it("the TypeScript rule gives each spelling its key", () => {
    for (const [spelling, key] of SPELLINGS) expect(phoneKey(spelling), spelling).toBe(key);
    expect(phoneKey(null)).toBeNull();
  });

  it("the migration's SQL gives every row written before it the key the TypeScript rule gives", async () => {
    const rows = await rawQuery(handle.db)<{ customer_phone: string | null; customer_phone_key: string | null }>(
      "select customer_phone, customer_phone_key from orders where store_id = $1 order by id",
      [OTHER_STORE],
    );
    expect(rows).toHaveLength(SPELLINGS.length + 2);
    for (const row of rows) expect(row.customer_phone_key, JSON.stringify(row.customer_phone)).toBe(phoneKey(row.customer_phone));
    // And the table's own answers, so a rule changed on both sides at once is still seen.
    expect(rows.slice(0, SPELLINGS.length).map((row) => row.customer_phone_key)).toEqual(SPELLINGS.map(([, key]) => key));
  });

  it("stores the key beside the number as received on every write path, and keeps the number as it came", async () => {
    const rows = await rawQuery(handle.db)<{ customer_phone: string; customer_phone_key: string }>(
      "select customer_phone, customer_phone_key from orders where store_id = $1 order by id",
      [STORE],
    );
    expect(rows.map((row) => row.customer_phone)).toEqual([...OLD_ROWS, ...NEW_ROWS].map(([spelling]) => spelling));
    expect(rows.map((row) => row.customer_phone_key)).toEqual([...OLD_ROWS, ...NEW_ROWS].map(([spelling]) => phoneKey(spelling)));
  });

  it("counts every spelling's orders, delivered and returned parcels for one customer", async () => {
    const [first, second, firstSpaced, none] = await withOrderHistory(handle.db, STORE, [
      customer(1, FIRST),
      customer(2, "+213 550 12 34 56"),
      customer(3, "00213 55 12 34 567"),
      customer(4, "0699999999"),
    ]);
    // 5 orders before the migration (3 delivered, 2 returned), 2 after (a pending, a confirmed).
    expect(first?.history).toEqual({ orders: 7, delivered: 3, returned: 2 });
    expect(firstSpaced?.history).toEqual({ orders: 7, delivered: 3, returned: 2 });
    // 4 before (2 delivered, 1 returned, 1 shipped), 2 after (a returned, a delivered).
    expect(second?.history).toEqual({ orders: 6, delivered: 3, returned: 2 });
    expect(none?.history).toEqual({ orders: 0, delivered: 0, returned: 0 });
    // The number shown is the customer's own, as the platform gave it.
    expect(second?.phone).toBe("+213 550 12 34 56");
  });

  it("finds every order of the number under one phone filter, however either was spelled", async () => {
    const firstOrders = [...OLD_ROWS, ...NEW_ROWS].map(([spelling]) => spelling).filter((spelling) => phoneKey(spelling) === FIRST).sort();
    const secondOrders = [...OLD_ROWS, ...NEW_ROWS].map(([spelling]) => spelling).filter((spelling) => phoneKey(spelling) === SECOND).sort();
    expect(firstOrders).toHaveLength(7);
    expect(secondOrders).toHaveLength(6);
    for (const typed of TYPED) {
      expect(await filtered(STORE, typed), typed).toEqual(phoneKey(typed) === FIRST ? firstOrders : secondOrders);
    }
    expect(await filtered(STORE, "0551")).toEqual([]);
    expect(await filtered(STORE, "abc")).toEqual([]);
  });

  it("indexes the key per store, in place of the index on the phone as received", async () => {
    const indexes = await rawQuery(handle.db)<{ indexname: string; indexdef: string }>(
      "select indexname, indexdef from pg_indexes where tablename = 'orders' and indexdef like '%phone%'",
      [],
    );
    expect(indexes.map((index) => index.indexname)).toEqual(["orders_store_phone_key_idx"]);
    expect(indexes[0]?.indexdef).toMatch(/\(store_id, customer_phone_key\)/);
  });
});
