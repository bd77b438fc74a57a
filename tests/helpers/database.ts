import { readFile } from "node:fs/promises";
import { inject } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { createScratchDatabase } from "@/db/scratch";
import { migrateDatabase } from "@/lib/database/migrate";
import { openAppDatabase } from "@/lib/database/open";
import type { DatabaseTemplate } from "./database-template";

/**
 * A fresh, migrated database for one test file. With TEST_DATABASE_URL (or DATABASE_URL) set, a new database on
 * that PostgreSQL server, dropped on close; otherwise an in-memory embedded PGlite. Opened as the app opens its own
 * (lib/database/open.ts: statements timed). It is a copy of the run's template (tests/helpers/database-template.ts),
 * migrated once as a release is; where no template was provided (a configuration without the global setup), it is
 * migrated here.
 */
// The template's image, read once per module registry: files sharing one (vitest.config.ts's "shared" project) open
// their copies from the same bytes instead of reading 40 MB from disk each.
let embeddedImage: { path: string; blob: Promise<Blob> } | undefined;
function imageAt(path: string): Promise<Blob> {
  if (embeddedImage?.path !== path) embeddedImage = { path, blob: readFile(path).then((bytes) => new Blob([bytes])) };
  return embeddedImage.blob;
}

export async function createTestDatabase(): Promise<DatabaseHandle> {
  const serverUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  const template: DatabaseTemplate | undefined = inject("databaseTemplate");
  if (!serverUrl) {
    if (template?.kind === "embedded") {
      return openAppDatabase({ embedded: "memory", image: await imageAt(template.imagePath) });
    }
    const handle = await openAppDatabase({ embedded: "memory" });
    await migrateDatabase(handle);
    return handle;
  }
  const copied = template?.kind === "server" ? template.name : undefined;
  const scratch = await createScratchDatabase(serverUrl, "starter_test", { template: copied });
  const handle = await openAppDatabase({ url: scratch.url });
  if (!copied) await migrateDatabase(handle);
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
