import { PGlite } from "@electric-sql/pglite";
import type postgres from "postgres";
import { healthOf } from "./pool-health";
import { runWithDeadline } from "./statement-deadline";
import { observed } from "./statement-observer";
import type { Db, DbOrTx } from "./types";

/**
 * A parameterised statement run straight on the driver, no query builder: for the few hot paths (the webhook
 * receiver) where building the query costs more than running it. Prepared once per connection (prepared() below).
 * With `deadlineMs`, the caller is answered by then (db/statement-deadline.ts runWithDeadline).
 */
export type RawQuery = <T>(text: string, params: unknown[], options?: { deadlineMs?: number }) => Promise<T[]>;

export function rawQuery(db: Db): RawQuery {
  const client = (db as unknown as { $client: unknown }).$client;
  if (client instanceof PGlite) {
    // In-process: there is no connection to wait for, so no deadline to keep.
    return async <T>(text: string, params: unknown[]) => (await observed(text, () => client.query<T>(text, params))).rows;
  }
  const sql = client as postgres.Sql;
  const state = healthOf(sql);
  return <T>(text: string, params: unknown[], options: { deadlineMs?: number } = {}) =>
    observed(text, () => runWithDeadline<T[]>(prepared(sql, text, params), state, options.deadlineMs));
}

/**
 * A named prepared statement: postgres.js's `unsafe` sends an unnamed one by default, so every call paid a Parse and
 * Describe round trip before its Bind and Execute, and the server planned the statement again each time. Prepared,
 * the statement is parsed once per connection and each later call is one round trip. A statement without parameters
 * goes as a simple query, which is never prepared.
 */
export function prepared(sql: postgres.Sql | postgres.TransactionSql, text: string, params: unknown[], options: postgres.UnsafeQueryOptions = {}) {
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
    return async <T>(text: string, params: unknown[]) => (await observed(text, () => prepared(sql, text, params))) as unknown as T[];
  }
  // PGlite's transaction object (or PGlite itself) answers query() with { rows }.
  const embedded = client as Pick<PGlite, "query">;
  return async <T>(text: string, params: unknown[]) => (await observed(text, () => embedded.query<T>(text, params))).rows;
}

/** Rows of a raw `db.execute()`: postgres.js returns an array, PGlite `{ rows }`. */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
