import { observeStatements, openDatabase, type DatabaseHandle, type DatabaseOptions } from "@/db/client";
import { env as processEnv, type Env } from "@/lib/env";
import { timeStatement } from "@/lib/observability/database";
import { migrateDatabase } from "./migrate";

/** openDatabase with the app's timing and tracing around the raw paths' statements (db/statement-observer.ts). */
export function openAppDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  observeStatements(timeStatement);
  return openDatabase(options);
}

export type OpenFromEnvOptions = {
  /** A script needs one connection or a few; the app's pool keeps the driver's default. */
  maxConnections?: number;
  /**
   * Apply the migrations when the database is the embedded one: nobody runs a release step for a folder on the
   * app's own disk. A server database is migrated at release (`npm run db:migrate`), never by whoever opens it.
   * `"tables"`: the app's tables only, for a caller that migrates the job engine's schema itself before its first
   * job (the app process: lib/jobs/app.ts), so a page waits for no more than the tables.
   */
  migrateEmbedded?: boolean | "tables";
  /** Defaults to this process's validated environment. */
  env?: Pick<Env, "DATABASE_URL" | "PGLITE_DIR">;
};

/** The database the environment names: the server at DATABASE_URL, or else the embedded one in PGLITE_DIR. */
export async function openDatabaseFromEnv(options: OpenFromEnvOptions = {}): Promise<DatabaseHandle> {
  const env = options.env ?? processEnv;
  const handle = env.DATABASE_URL
    ? await openAppDatabase({ url: env.DATABASE_URL, maxConnections: options.maxConnections })
    : await openAppDatabase({ embedded: env.PGLITE_DIR });
  if (handle.kind === "embedded" && options.migrateEmbedded) {
    try {
      if (options.migrateEmbedded === "tables") await handle.migrateTables();
      else await migrateDatabase(handle);
    } catch (error) {
      // The folder stays locked until closed: a failed open must not leave it so.
      await handle.close();
      throw error;
    }
  }
  return handle;
}
