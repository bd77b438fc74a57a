import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { installs } from "@/db/schema";
import { rowsOf, type DatabaseHandle } from "@/db/client";
import { openDatabaseFromEnv } from "@/lib/database/open";
import { createTestDatabase, databaseKind } from "../helpers/database";

describe(`database (${databaseKind()})`, () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase();
  });
  afterAll(async () => {
    await handle?.close();
  });

  it("applies every migration so the schema's tables exist", async () => {
    const result = await handle.db.execute(
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    );
    const tables = rowsOf<{ table_name: string }>(result).map((row) => row.table_name);
    expect(tables).toEqual(
      expect.arrayContaining(["installs", "order_items", "order_status_history", "orders", "rate_buckets", "webhook_events"]),
    );
  });

  it("round-trips an install row through the typed schema", async () => {
    await handle.db.insert(installs).values({ storeId: 11, installId: 501, storeName: "Dar El Baraka", scopes: ["orders:read"] });
    const [row] = await handle.db.select().from(installs);
    expect(row?.storeName).toBe("Dar El Baraka");
    expect(row?.scopes).toEqual(["orders:read"]);
    expect(row?.state).toBe("active");
  });
});

describe("opening the database the environment names", () => {
  const embedded = { DATABASE_URL: undefined, PGLITE_DIR: "memory" };
  const tablesOf = async (handle: DatabaseHandle) =>
    rowsOf<{ table_name: string }>(
      await handle.db.execute(sql`select table_name from information_schema.tables where table_schema = 'public'`),
    ).map((row) => row.table_name);

  it("migrates the embedded database only when asked (the app and the maintenance scripts; db:migrate does it itself)", async () => {
    const migrated = await openDatabaseFromEnv({ env: embedded, migrateEmbedded: true });
    const bare = await openDatabaseFromEnv({ env: embedded });
    try {
      expect(migrated.kind).toBe("embedded");
      expect(await tablesOf(migrated)).toContain("installs");
      expect(await tablesOf(bare)).toEqual([]);
    } finally {
      await Promise.all([migrated.close(), bare.close()]);
    }
    // Two embedded databases at once, one of them migrated: 3 s on a quiet machine, 36 s seen on a loaded 2-core one.
  }, 90_000);

  it("migrates the job engine's schema too, unless asked for the tables only (the app, whose job engine does it: lib/jobs/app.ts)", async () => {
    const jobSchemas = async (handle: DatabaseHandle) =>
      rowsOf<{ schema_name: string }>(await handle.db.execute(sql`select schema_name from information_schema.schemata where schema_name = 'pgboss'`));
    const whole = await openDatabaseFromEnv({ env: embedded, migrateEmbedded: true });
    const tablesOnly = await openDatabaseFromEnv({ env: embedded, migrateEmbedded: "tables" });
    try {
      expect(await jobSchemas(whole)).toHaveLength(1);
      expect(await tablesOf(tablesOnly)).toContain("installs");
      expect(await jobSchemas(tablesOnly)).toEqual([]);
    } finally {
      await Promise.all([whole.close(), tablesOnly.close()]);
    }
  }, 90_000);

  it("opens the server at DATABASE_URL when it is set, without migrating it", async () => {
    const handle = await openDatabaseFromEnv({ env: { DATABASE_URL: "postgres://app:pw@127.0.0.1:1/app", PGLITE_DIR: "memory" }, migrateEmbedded: true });
    try {
      expect(handle).toMatchObject({ kind: "server", location: "postgres://app:***@127.0.0.1:1/app" });
    } finally {
      await handle.close();
    }
  });
});
