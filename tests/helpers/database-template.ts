import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { imageOfEmbedded } from "@/db/client";
import { createScratchDatabase } from "@/db/scratch";
import { migrateDatabase } from "@/lib/database/migrate";
import { openAppDatabase } from "@/lib/database/open";

/**
 * Vitest's global setup: one database migrated as a release is (tables, then the job engine), once per run, that
 * every test file's createTestDatabase() copies instead of building and migrating its own. On a PostgreSQL server a
 * template database; embedded, an image of a migrated PGlite's files, since most of a fresh PGlite's cost is its
 * initdb. A file whose test is the migration itself opens a bare database, not this.
 */
export type DatabaseTemplate = { kind: "server"; name: string } | { kind: "embedded"; imagePath: string };

declare module "vitest" {
  export interface ProvidedContext {
    databaseTemplate: DatabaseTemplate;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const serverUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (serverUrl) {
    const scratch = await createScratchDatabase(serverUrl, "starter_template");
    const handle = await openAppDatabase({ url: scratch.url, maxConnections: 1 });
    try {
      await migrateDatabase(handle);
    } finally {
      // A template must have nobody connected when it is copied.
      await handle.close();
    }
    project.provide("databaseTemplate", { kind: "server", name: scratch.name });
    return () => scratch.drop();
  }
  const handle = await openAppDatabase({ embedded: "memory" });
  const folder = await mkdtemp(path.join(os.tmpdir(), "starter-test-template-"));
  try {
    await migrateDatabase(handle);
    const imagePath = path.join(folder, "migrated.tar");
    await writeFile(imagePath, Buffer.from(await (await imageOfEmbedded(handle)).arrayBuffer()));
    project.provide("databaseTemplate", { kind: "embedded", imagePath });
  } finally {
    await handle.close();
  }
  return () => rm(folder, { recursive: true, force: true });
}
