import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import type postgres from "postgres";
import { healthOf } from "./pool-health";
import { prepared } from "./raw-query";
import * as schema from "./schema";
import { runWithDeadline } from "./statement-deadline";
import { observed } from "./statement-observer";
import type { Db } from "./types";

/**
 * The same database with rawQuery's deadline on every statement drizzle sends outside a transaction: the handle
 * for request paths (lib/database/app-database.ts getDb), so a page whose database is gone fails within
 * `deadlineMs` with a DatabaseDeadlineError (inside drizzle's DrizzleQueryError; lib/database-unavailable.ts
 * recognises both) instead of waiting. Same pool, same record of what it last heard, same results. A transaction's
 * statements run on the connection `begin` reserved and carry no deadline. PGlite, in-process, gets none and is
 * returned as it is.
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
    const run = () => (running ??= observed(text, () => runWithDeadline(query, state, deadlineMs)));
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
