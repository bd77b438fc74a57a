import type { Db as IDatabase } from "pg-boss";
import { transactionQuery, type DbOrTx } from "@/db/client";

/**
 * A transaction (or the database) as pg-boss's `db` option: a job sent through it commits or rolls back with it.
 *
 * Straight to the driver (db/raw-query.ts transactionQuery), not pg-boss's drizzle adapter: that one parsed the
 * placeholders of pg-boss's statement and built a drizzle query from them on every send, then sent it unnamed,
 * so every order.created webhook paid for query building and a Parse of a 3 kB statement. Here pg-boss's text goes
 * to the connection as it is, prepared once per connection (`send` binds one JSON string).
 */
export function inTransaction(tx: DbOrTx): IDatabase {
  const query = transactionQuery(tx);
  return {
    async executeSql(text, values) {
      return { rows: await query(text, values ? values.map(bindable) : []) };
    },
  };
}

/**
 * pg-boss binds some parameters as arrays (`id = ANY($2::uuid[])` in complete, cancel, fail …). postgres.js, opened
 * without fetching the server's types (db/open.ts), sends a JS array as `a,b`, which PostgreSQL refuses as an
 * array literal: so an array goes as its literal text, `{"a","b"}`, which both drivers bind as it is.
 */
function bindable(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return `{${value.map((element) => (element === null || element === undefined ? "NULL" : `"${String(element).replace(/[\\"]/g, "\\$&")}"`)).join(",")}}`;
}
