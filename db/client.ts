import { mkdir, readFile, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { timeStatement } from "@/lib/observability/database";
import { migrateJobs } from "../lib/jobs/boss";
import * as schema from "./schema";

import type { DatabaseHandle, Db, DbOrTx } from "./types";

export type { DatabaseHandle, Db, DbOrTx } from "./types";

export const MIGRATIONS_FOLDER = path.join(process.cwd(), "db", "migrations");

export type DatabaseOptions =
  | { url: string; maxConnections?: number }
  /** A folder for a persistent embedded database, or "memory" for a throwaway one. */
  | { embedded: string };

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if ("url" in options) {
    const client = postgres(options.url, {
      max: options.maxConnections ?? 10,
      onnotice: () => {},
      // Outage behaviour. postgres.js 3.4.9 waits between reconnects with a backoff shared by the whole pool that
      // grows to 20 s, so queries queued while the server was down kept waiting long after it came back: a short
      // fixed pause instead. A connect that hangs (an unreachable host) is given up after 2 s, not 30.
      backoff: () => 0.1 + Math.random() * 0.1,
      connect_timeout: 2,
      // drizzle parses and serializes array columns itself: the per-connection array-type query postgres.js would
      // run first only made every new connection one round trip slower (felt when a pool opens under load).
      fetch_types: false,
      // Timestamps are parsed by drizzle; bigint ids stay exact as strings until drizzle maps them.
      connection: { application_name: "store-app-starter" },
    });
    const db = drizzlePostgres(client, { schema }) as unknown as Db;
    const handle: DatabaseHandle = {
      db,
      kind: "server",
      location: redactUrl(options.url),
      connectionString: options.url,
      async migrate() {
        await migratePostgres(db as never, { migrationsFolder: MIGRATIONS_FOLDER });
        await migrateJobs(handle);
      },
      close: () => client.end({ timeout: 5 }),
    };
    return handle;
  }
  const dataDir = options.embedded === "memory" ? undefined : path.resolve(options.embedded);
  // PGlite creates only the last folder of the path.
  if (dataDir) await mkdir(path.dirname(dataDir), { recursive: true });
  const releaseLock = dataDir ? await lockEmbeddedFolder(dataDir) : async () => {};
  const client = await (dataDir ? PGlite.create(dataDir) : PGlite.create()).catch(async (error: unknown) => {
    await releaseLock();
    throw error;
  });
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  const handle: DatabaseHandle = {
    db,
    kind: "embedded",
    location: dataDir ?? "memory",
    async migrate() {
      await migratePglite(db as never, { migrationsFolder: MIGRATIONS_FOLDER });
      await migrateJobs(handle);
    },
    async close() {
      await client.close();
      await releaseLock();
    },
  };
  return handle;
}

/**
 * Nothing stops two processes from opening one PGlite folder, and that corrupts it. A lock file holding the
 * owner's pid turns that mistake (say, `npm run db:migrate` beside a running `npm run dev`) into a clear error.
 */
async function lockEmbeddedFolder(dataDir: string): Promise<() => Promise<void>> {
  const lockPath = `${dataDir}.lock`;
  const mine = String(process.pid);
  try {
    await writeFile(lockPath, mine, { flag: "wx" });
  } catch {
    const owner = Number((await readFile(lockPath, "utf8").catch(() => "")).trim());
    if (owner && owner !== process.pid && processIsAlive(owner)) {
      throw new Error(
        `The embedded database at ${dataDir} is open in another process (pid ${owner}). ` +
          "Stop that process first (the app migrates the embedded database itself when it starts), " +
          "or set DATABASE_URL to use a PostgreSQL server.",
      );
    }
    await writeFile(lockPath, mine);
  }
  // A lock left by a crashed process names a dead pid and is taken over above.
  const release = async () => {
    const owner = await readFile(lockPath, "utf8").catch(() => "");
    if (owner.trim() === mine) await unlink(lockPath).catch(() => {});
  };
  return release;
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(unparseable database URL)";
  }
}

/**
 * How long a request path waits for the database before it gives up: the webhook receiver's DATABASE_DEADLINE_MS
 * (lib/webhooks/receive.ts; a unit test keeps the two equal), and getDb()'s statement deadline for pages.
 */
export const REQUEST_DEADLINE_MS = 1_500;

/** The database did not answer within the caller's deadline (a dead server, or every connection busy). */
export class DatabaseDeadlineError extends Error {
  constructor(ms: number) {
    super(`the database did not answer within ${ms} ms`);
    this.name = "DatabaseDeadlineError";
  }
}

/**
 * A parameterised statement run straight on the driver, no query builder: for the few hot paths (the webhook
 * receiver) where building the query costs more than running it. Prepared once per connection (prepared() below).
 *
 * The deadline tells a failing database from a busy one. At `deadlineMs`, if the last thing this pool heard from
 * the server was a connection failure (refused, reset, cut by a shutdown, connect timeout), the caller gets a
 * DatabaseDeadlineError at once. Otherwise the database is only slow (a pool opening its connections on a loaded
 * machine) and the statement gets until `4 × deadlineMs`. Either way a statement still waiting for a connection is
 * withdrawn from the pool's queue, so it never runs later; one already sent is left to the server (it commits or
 * not, both fine for callers that retry; cancelling it would need a fresh connection, whose failure postgres.js
 * leaves unhandled).
 */
export type RawQuery = <T>(text: string, params: unknown[], options?: { deadlineMs?: number }) => Promise<T[]>;

/** Errors that say the server is unreachable or going away, as opposed to a statement that failed. */
export function isConnectionFailure(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return false;
  return (
    code.startsWith("08") || // connection exceptions
    code.startsWith("57P") || // admin shutdown, crash shutdown, cannot connect now
    ["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"].includes(code) ||
    code.startsWith("CONNECTION_") ||
    code === "CONNECT_TIMEOUT"
  );
}

type PoolHealth = { failedAt: number; answeredAt: number };
const poolHealth = new WeakMap<object, PoolHealth>();

/** What this pool last heard from the server, shared by every caller that runs statements with a deadline. */
function healthOf(sql: postgres.Sql): PoolHealth {
  let health = poolHealth.get(sql);
  if (!health) poolHealth.set(sql, (health = { failedAt: 0, answeredAt: 0 }));
  return health;
}

/** A postgres.js statement as runWithDeadline uses it: it starts when awaited, and can be withdrawn. */
type Statement = PromiseLike<unknown> & { cancel(): unknown };

/** Runs a postgres.js statement (started by this call), noting what the pool heard and keeping the deadline. */
function runWithDeadline<T>(query: Statement, state: PoolHealth, deadlineMs: number | undefined): Promise<T> {
  // A statement withdrawn at its deadline is rejected by postgres.js itself (57014): not word from the server, so
  // it must not count as an answer (it did, and then every statement queued behind it waited the slow pool's 4x).
  let withdrawn = false;
  const tracked = (query as unknown as Promise<T>).then(
    (rows) => {
      state.answeredAt = performance.now();
      return rows;
    },
    (error: unknown) => {
      if (isConnectionFailure(error)) state.failedAt = performance.now();
      else if (!withdrawn) state.answeredAt = performance.now();
      throw error;
    },
  );
  if (!deadlineMs) return tracked;
  let timer: ReturnType<typeof setInterval> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    const startedAt = performance.now();
    // Checked every 100 ms past the deadline: a connect that times out meanwhile turns "slow" into "failing".
    timer = setInterval(() => {
      const waited = performance.now() - startedAt;
      if (waited < deadlineMs) return;
      if (state.failedAt <= state.answeredAt && waited < deadlineMs * 4) return;
      clearInterval(timer);
      if (!(query as unknown as { state: unknown }).state) {
        withdrawn = true;
        query.cancel();
      }
      reject(new DatabaseDeadlineError(Math.round(waited)));
    }, 100);
  });
  return Promise.race([tracked, deadline]).finally(() => clearInterval(timer));
}

export function rawQuery(db: Db): RawQuery {
  const client = (db as unknown as { $client: unknown }).$client;
  if (client instanceof PGlite) {
    // In-process: there is no connection to wait for, so no deadline to keep.
    return async <T>(text: string, params: unknown[]) => (await timeStatement(text, () => client.query<T>(text, params))).rows;
  }
  const sql = client as postgres.Sql;
  const state = healthOf(sql);
  return <T>(text: string, params: unknown[], options: { deadlineMs?: number } = {}) =>
    timeStatement(text, () => runWithDeadline<T[]>(prepared(sql, text, params), state, options.deadlineMs));
}

/**
 * A named prepared statement: postgres.js's `unsafe` sends an unnamed one by default, so every call paid a Parse and
 * Describe round trip before its Bind and Execute, and the server planned the statement again each time. Prepared,
 * the statement is parsed once per connection and each later call is one round trip. A statement without parameters
 * goes as a simple query, which is never prepared, and asking for it anyway changed how postgres.js withdraws one
 * still waiting for its connection (tests/integration/database-outage.test.ts).
 */
function prepared(sql: postgres.Sql | postgres.TransactionSql, text: string, params: unknown[], options: postgres.UnsafeQueryOptions = {}) {
  return sql.unsafe(text, params as postgres.ParameterOrJSON<never>[], params.length > 0 ? { ...options, prepare: true } : options);
}

/**
 * rawQuery inside a transaction opened with `db.transaction`: the statement runs on the connection the transaction
 * holds (drizzle keeps it as its session's client), so it commits or rolls back with the rest, without going
 * through drizzle's query building. No deadline of its own: the caller keeps one for the whole transaction.
 */
export function transactionQuery(tx: DbOrTx): RawQuery {
  const client = (tx as unknown as { session: { client: unknown } }).session.client;
  if (typeof (client as { unsafe?: unknown }).unsafe === "function") {
    const sql = client as postgres.TransactionSql;
    return async <T>(text: string, params: unknown[]) => (await timeStatement(text, () => prepared(sql, text, params))) as unknown as T[];
  }
  // PGlite's transaction object (or PGlite itself) answers query() with { rows }.
  const embedded = client as Pick<PGlite, "query">;
  return async <T>(text: string, params: unknown[]) => (await timeStatement(text, () => embedded.query<T>(text, params))).rows;
}

/**
 * The same database with rawQuery's deadline on every statement drizzle sends outside a transaction: the handle
 * for request paths (db/index.ts getDb), so a page whose database is gone fails within `deadlineMs` with a
 * DatabaseDeadlineError (inside drizzle's DrizzleQueryError; lib/database-unavailable.ts recognises both) instead
 * of waiting. Same pool, same record of what it last heard, same results. A transaction's statements run on the
 * connection `begin` reserved and carry no deadline. PGlite, in-process, gets none and is returned as it is.
 */
export function withStatementDeadline(db: Db, deadlineMs: number): Db {
  const client = (db as unknown as { $client: unknown }).$client;
  if (client instanceof PGlite) return db;
  const sql = client as postgres.Sql;
  const state = healthOf(sql);
  // drizzle's postgres-js session calls `unsafe(...)` and either awaits it or awaits `.values()` on it. Its statements
  // go through prepared(), as rawQuery's do: drizzle asks for named statements only of its own `.prepare()`d queries,
  // so every page's session, install and orders lookups paid a Parse/Describe round trip and a fresh plan each time.
  const unsafe = (text: string, params: unknown[] = [], options?: postgres.UnsafeQueryOptions) => {
    const query = prepared(sql, text, params, options);
    let running: Promise<unknown> | undefined;
    const run = () => (running ??= timeStatement(text, () => runWithDeadline(query, state, deadlineMs)));
    return {
      values() {
        query.values();
        return run();
      },
      then<A, B>(onFulfilled?: (rows: unknown) => A | PromiseLike<A>, onRejected?: (error: unknown) => B | PromiseLike<B>) {
        return run().then(onFulfilled, onRejected);
      },
    };
  };
  const bounded = new Proxy(sql, { get: (target, key) => (key === "unsafe" ? unsafe : Reflect.get(target, key)) });
  const boundedDb = drizzlePostgres(bounded, { schema }) as unknown as Db;
  // rawQuery and pingDatabase on this handle reach the pool itself, and keep their own deadline.
  (boundedDb as unknown as { $client: unknown }).$client = sql;
  return boundedDb;
}

/** Rows of a raw `db.execute()`: postgres.js returns an array, PGlite `{ rows }`. */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
