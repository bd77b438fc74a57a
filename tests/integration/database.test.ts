import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { installs } from "@/db/schema";
import { rowsOf, type DatabaseHandle } from "@/db/client";
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
