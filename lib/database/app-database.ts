import "server-only";
import { REQUEST_DEADLINE_MS, withStatementDeadline, type DatabaseHandle, type Db } from "@/db/client";
import { env } from "@/lib/env";
import { openDatabaseFromEnv } from "./open";

/**
 * The app's database, one per process. Kept on globalThis so dev-server reloads reuse it: two PGlite instances
 * on one folder corrupt it. The embedded database migrates its tables at first use (the job engine's schema follows
 * when the job engine starts, lib/jobs/app.ts); a server database is migrated at release with `npm run db:migrate`.
 */
const globalForDb = globalThis as unknown as { appDatabase?: Promise<DatabaseHandle>; appDatabaseOpening?: boolean };

export function getDatabase(): Promise<DatabaseHandle> {
  if (!globalForDb.appDatabase) {
    globalForDb.appDatabaseOpening = true;
    globalForDb.appDatabase = openDatabaseFromEnv({ env, migrateEmbedded: "tables" })
      .catch((error: unknown) => {
        globalForDb.appDatabase = undefined;
        throw error;
      })
      .finally(() => {
        globalForDb.appDatabaseOpening = false;
      });
  }
  return globalForDb.appDatabase;
}

/**
 * True while this process's first open (and, for the embedded database, its migration) is still under way: a
 * new embedded database takes seconds to create. Slow then is not broken, and /api/health says "starting".
 */
export function isDatabaseOpening(): boolean {
  return globalForDb.appDatabaseOpening === true;
}

const boundedDbs = new WeakMap<DatabaseHandle, Db>();

/**
 * The database for request paths (pages, route handlers, actions): each statement outside a transaction carries
 * REQUEST_DEADLINE_MS (db/with-statement-deadline.ts), so with the server gone a page fails within it and shows
 * lib/database-unavailable.ts's answer instead of waiting. Scripts open their own handle, without one.
 */
export async function getDb(): Promise<Db> {
  const handle = await getDatabase();
  let db = boundedDbs.get(handle);
  if (!db) boundedDbs.set(handle, (db = withStatementDeadline(handle.db, REQUEST_DEADLINE_MS)));
  return db;
}

export type { Db, DbOrTx } from "@/db/client";
