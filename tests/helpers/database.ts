import { openDatabase, type DatabaseHandle } from "@/db/client";
import { createScratchDatabase } from "@/db/scratch";

/**
 * A fresh, migrated database for one test file. With TEST_DATABASE_URL (or DATABASE_URL) set, a new database on
 * that PostgreSQL server, dropped on close; otherwise an in-memory embedded PGlite.
 */
export async function createTestDatabase(): Promise<DatabaseHandle> {
  const serverUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!serverUrl) {
    const handle = await openDatabase({ embedded: "memory" });
    await handle.migrate();
    return handle;
  }
  const scratch = await createScratchDatabase(serverUrl, "starter_test");
  const handle = await openDatabase({ url: scratch.url });
  await handle.migrate();
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
