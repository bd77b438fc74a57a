/**
 * `npm run db:migrate`: applies db/migrations, then the job engine's schema and queues (lib/jobs/boss.ts), to
 * DATABASE_URL, or to the embedded database under .data/ when it is unset. Run it at release, before the new version starts. The embedded database also migrates itself when the app
 * starts, so in development this is only needed to prepare a folder ahead of time.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { MIGRATIONS_FOLDER } from "../db/client";
import { recordAppEnvironment } from "../db/queries/app-environments";
import { env } from "../lib/env";
import { openDatabaseFromEnv } from "../lib/database/open";
import { migrateDatabase } from "../lib/database/migrate";

async function main(): Promise<void> {
  const journal = JSON.parse(await readFile(path.join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as {
    entries: { tag: string }[];
  };
  const handle = await openDatabaseFromEnv({ maxConnections: 1 });
  console.log(`Applying ${journal.entries.length} migration(s) to ${handle.kind} database ${handle.location} …`);
  const started = Date.now();
  try {
    await migrateDatabase(handle);
    // Which deployment migrated this database: the doctor warns when a preview shares one with another environment.
    if (handle.kind === "server") {
      await recordAppEnvironment(handle.db, { environment: env.VERCEL_ENV || env.NODE_ENV, appUrl: env.APP_URL, migratedAt: new Date() });
    }
  } finally {
    await handle.close();
  }
  console.log(`✓ Database is at ${journal.entries.at(-1)?.tag ?? "(no migrations)"}, job queues included (${Date.now() - started} ms).`);
}

main().catch((error: unknown) => {
  console.error(`✗ Migration failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
