import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type * as schema from "./schema";

// The database's types in a module that imports no code: every file of db/ and the lib/ modules that take a
// handle (the job engine's migration in lib/jobs/boss.ts) name them from here.

/** Either driver: the embedded PGlite or postgres.js against a server. Query code is written against this. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handle is a Db too, so query functions accept either. */
export type DbOrTx = Db | Parameters<Parameters<Db["transaction"]>[0]>[0];

export type DatabaseHandle = {
  db: Db;
  kind: "embedded" | "server";
  /** Where it lives, without credentials (safe to print). */
  location: string;
  /** The server's URL, credentials included (never print it): for the job engine's own pool (lib/jobs/boss.ts). */
  connectionString?: string;
  /**
   * The app's own tables (db/migrations) only. The whole release step, the job engine's schema and queues
   * included, is lib/database/migrate.ts migrateDatabase(handle).
   */
  migrateTables(): Promise<void>;
  close(): Promise<void>;
};
