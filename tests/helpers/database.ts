import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { openDatabase, type DatabaseHandle } from "@/db/client";

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
  const name = `starter_test_${randomBytes(6).toString("hex")}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ url: url.toString() });
  await handle.migrate();
  return {
    ...handle,
    async close() {
      await handle.close();
      const dropper = postgres(serverUrl, { max: 1, onnotice: () => {} });
      await dropper.unsafe(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

export function databaseKind(): "embedded" | "server" {
  return process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ? "server" : "embedded";
}
