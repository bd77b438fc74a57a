import "server-only";
import { env } from "@/lib/env";
import type { DatabaseHandle, Db } from "./client";
import { openDatabaseFromEnv } from "./open-from-env";

/**
 * The app's database, one per process. Kept on globalThis so dev-server reloads reuse it: two PGlite instances
 * on one folder corrupt it. The embedded database migrates itself at first use; a server database is migrated at
 * release with `npm run db:migrate`.
 */
const globalForDb = globalThis as unknown as { appDatabase?: Promise<DatabaseHandle>; appDatabaseOpening?: boolean };

export function getDatabase(): Promise<DatabaseHandle> {
  if (!globalForDb.appDatabase) {
    globalForDb.appDatabaseOpening = true;
    globalForDb.appDatabase = openDatabaseFromEnv({ env, migrateEmbedded: true })
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

export async function getDb(): Promise<Db> {
  return (await getDatabase()).db;
}

export type { Db, DbOrTx } from "./client";
