import { mkdir } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import * as schema from "./schema";

/** Either driver: the embedded PGlite or postgres.js against a server. Query code is written against this. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handle is a Db too, so query functions accept either. */
export type DbOrTx = Db | Parameters<Parameters<Db["transaction"]>[0]>[0];

export type DatabaseHandle = {
  db: Db;
  kind: "embedded" | "server";
  /** Where it lives, without credentials (safe to print). */
  location: string;
  migrate(): Promise<void>;
  close(): Promise<void>;
};

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
      // Timestamps are parsed by drizzle; bigint ids stay exact as strings until drizzle maps them.
      connection: { application_name: "store-app-starter" },
    });
    const db = drizzlePostgres(client, { schema }) as unknown as Db;
    return {
      db,
      kind: "server",
      location: redactUrl(options.url),
      migrate: () => migratePostgres(db as never, { migrationsFolder: MIGRATIONS_FOLDER }),
      close: () => client.end({ timeout: 5 }),
    };
  }
  const dataDir = options.embedded === "memory" ? undefined : path.resolve(options.embedded);
  // PGlite creates only the last folder of the path.
  if (dataDir) await mkdir(path.dirname(dataDir), { recursive: true });
  const client = dataDir ? await PGlite.create(dataDir) : await PGlite.create();
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: "embedded",
    location: dataDir ?? "memory",
    migrate: () => migratePglite(db as never, { migrationsFolder: MIGRATIONS_FOLDER }),
    close: () => client.close(),
  };
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

/** Rows of a raw `db.execute()`: postgres.js returns an array, PGlite `{ rows }`. */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
