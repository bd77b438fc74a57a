import postgres from "postgres";

/** The signed-in floor's one connection pool (postgres.js, prepared statements, no ORM), opened on first use. */
let sql: postgres.Sql | undefined;

export function floorSql(): postgres.Sql {
  sql ??= postgres(process.env.DATABASE_URL!, { max: 10, onnotice: () => {} });
  return sql;
}
