import { sql } from "drizzle-orm";
import { rawQuery, rowsOf, type Db, type DbOrTx } from "@/db/client";

/** drizzle's bookkeeping table (drizzle-orm's pg migrator defaults): one row per applied migration. */
const MIGRATIONS_TABLE = "drizzle.__drizzle_migrations";

export type AppliedMigration = { hash: string; createdAt: number };

/**
 * Round trip to the database; throws when it cannot answer. With a deadline, the ping answers by then, and on a dead
 * pool it is refused at once once enough given-up statements wait there (db/statement-deadline.ts), so a probe every
 * few seconds cannot pile up behind them.
 */
export async function pingDatabase(db: Db, options: { deadlineMs?: number } = {}): Promise<void> {
  const client = (db as unknown as { $client?: { unsafe?: unknown } }).$client;
  if (options.deadlineMs && typeof client?.unsafe === "function") await rawQuery(db)("select 1", [], options);
  else await db.execute(sql`select 1`);
}

/**
 * Migrations recorded by drizzle's migrator, oldest first. `created_at` is the journal's `when` of each migration,
 * which is what the migrator itself compares to decide what is pending. An empty list when the table is absent
 * (a database no migration has ever touched).
 */
export async function listAppliedMigrations(db: DbOrTx): Promise<AppliedMigration[]> {
  const exists = rowsOf<{ present: boolean | null }>(
    await db.execute(sql`select to_regclass(${MIGRATIONS_TABLE}) is not null as present`),
  );
  if (!exists[0]?.present) return [];
  const rows = rowsOf<{ hash: string; created_at: string | number | null }>(
    await db.execute(sql`select hash, created_at from drizzle.__drizzle_migrations order by created_at asc, id asc`),
  );
  // bigint arrives as a string from postgres.js and as a number from PGlite.
  return rows.map((row) => ({ hash: row.hash, createdAt: Number(row.created_at ?? 0) }));
}
