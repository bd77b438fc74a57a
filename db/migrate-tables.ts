import path from "node:path";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import type { Db } from "./types";

export const MIGRATIONS_FOLDER = path.join(process.cwd(), "db", "migrations");

/**
 * The app's own tables: the committed drizzle migrations (db/migrations), through the migrator of the handle's
 * driver. The job engine's schema is not the ground floor's: lib/database/migrate.ts runs it after these.
 */
export async function migrateTables(db: Db, kind: "embedded" | "server"): Promise<void> {
  if (kind === "server") await migratePostgres(db as never, { migrationsFolder: MIGRATIONS_FOLDER });
  else await migratePglite(db as never, { migrationsFolder: MIGRATIONS_FOLDER });
}
