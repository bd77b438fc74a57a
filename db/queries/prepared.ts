import type { DbOrTx } from "@/db/client";

/**
 * A drizzle query built once per database handle and kept as a prepared query (`.prepare(name)`), for statements
 * every page runs (the session's stores, the import notice): drizzle otherwise builds the SQL text again on each
 * call, which cost more CPU than the database spent answering. Values go in as `sql.placeholder`s at execute time;
 * a placeholder skips the column's encoder, so a Date goes in as its ISO text. Results are mapped as before.
 */
export function preparedPerDb<Query>(build: (db: DbOrTx) => Query): (db: DbOrTx) => Query {
  const built = new WeakMap<DbOrTx, Query>();
  return (db) => {
    let query = built.get(db);
    if (!query) built.set(db, (query = build(db)));
    return query;
  };
}
