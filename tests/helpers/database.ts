import type { DatabaseHandle } from "@/db/client";
import { createScratchDatabase } from "@/db/scratch";
import { migrateDatabase } from "@/lib/database/migrate";
import { openAppDatabase } from "@/lib/database/open";

/**
 * A fresh, migrated database for one test file. With TEST_DATABASE_URL (or DATABASE_URL) set, a new database on
 * that PostgreSQL server, dropped on close; otherwise an in-memory embedded PGlite. Opened as the app opens its own
 * (lib/database/open.ts: statements timed) and migrated as a release is (tables, then the job engine).
 */
export async function createTestDatabase(): Promise<DatabaseHandle> {
  const serverUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!serverUrl) {
    const handle = await openAppDatabase({ embedded: "memory" });
    await migrateDatabase(handle);
    return handle;
  }
  const scratch = await createScratchDatabase(serverUrl, "starter_test");
  const handle = await openAppDatabase({ url: scratch.url });
  await migrateDatabase(handle);
  return {
    ...handle,
    async close() {
      await handle.close();
      await scratch.drop();
    },
  };
}

export function databaseKind(): "embedded" | "server" {
  return process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ? "server" : "embedded";
}
