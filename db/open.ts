import { mkdir } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { lockEmbeddedFolder } from "./embedded-lock";
import { migrateTables } from "./migrate-tables";
import { redactUrl } from "./redact-url";
import * as schema from "./schema";
import type { DatabaseHandle, Db } from "./types";

export type DatabaseOptions =
  | { url: string; maxConnections?: number }
  /**
   * A folder for a persistent embedded database, or "memory" for a throwaway one. `image` (a throwaway one only)
   * starts it as a copy of another's files (imageOfEmbedded) rather than from an empty cluster, which PGlite
   * builds by running initdb: seconds on a busy machine, where loading an image is a fraction of that.
   */
  | { embedded: string; image?: Blob };

/** Either driver behind one handle: postgres.js against a server at `url`, or PGlite in this process. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  return "url" in options ? openServer(options.url, options.maxConnections) : openEmbedded(options.embedded, options.image);
}

// The PGlite behind each embedded handle, for imageOfEmbedded: the handle itself stays driver-neutral.
const embeddedClients = new WeakMap<DatabaseHandle, PGlite>();

/** An embedded database's files as one uncompressed tarball, to open copies of it with `{ embedded: "memory", image }`. */
export async function imageOfEmbedded(handle: DatabaseHandle): Promise<Blob> {
  const client = embeddedClients.get(handle);
  if (!client) throw new Error(`imageOfEmbedded: ${handle.location} is not an embedded database opened here`);
  return client.dumpDataDir("none");
}

function openServer(url: string, maxConnections = 10): DatabaseHandle {
  const client = postgres(url, {
    max: maxConnections,
    onnotice: () => {},
    // Outage behaviour. postgres.js 3.4.9 waits between reconnects with a backoff shared by the whole pool that
    // grows to 20 s, so queries queued while the server was down kept waiting long after it came back: a short
    // fixed pause instead. A connect that hangs (an unreachable host) is given up after 2 s, not 30.
    backoff: () => 0.1 + Math.random() * 0.1,
    connect_timeout: 2,
    // drizzle parses and serializes array columns itself: the per-connection array-type query postgres.js would
    // run first only made every new connection one round trip slower (felt when a pool opens under load).
    fetch_types: false,
    // Timestamps are parsed by drizzle; bigint ids stay exact as strings until drizzle maps them.
    connection: { application_name: "store-app-starter" },
  });
  const db = drizzlePostgres(client, { schema }) as unknown as Db;
  return {
    db,
    kind: "server",
    location: redactUrl(url),
    connectionString: url,
    migrateTables: () => migrateTables(db, "server"),
    close: () => client.end({ timeout: 5 }),
  };
}

async function openEmbedded(folder: string, image: Blob | undefined): Promise<DatabaseHandle> {
  const dataDir = folder === "memory" ? undefined : path.resolve(folder);
  if (dataDir && image) throw new Error("an image starts a throwaway embedded database only, not a folder");
  // PGlite creates only the last folder of the path.
  if (dataDir) await mkdir(path.dirname(dataDir), { recursive: true });
  const releaseLock = dataDir ? await lockEmbeddedFolder(dataDir) : async () => {};
  const client = await (dataDir ? PGlite.create(dataDir) : PGlite.create(image ? { loadDataDir: image } : {})).catch(async (error: unknown) => {
    await releaseLock();
    throw error;
  });
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  const handle: DatabaseHandle = {
    db,
    kind: "embedded",
    location: dataDir ?? "memory",
    migrateTables: () => migrateTables(db, "embedded"),
    async close() {
      await client.close();
      await releaseLock();
    },
  };
  embeddedClients.set(handle, client);
  return handle;
}
