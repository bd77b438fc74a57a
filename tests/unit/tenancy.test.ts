import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { saveInstalledStores } from "@/lib/installs/tokens";
import { mergeStoreIds } from "@/lib/session";
import { parseStoreId, resolveStoreAccess } from "@/lib/tenancy";
import { createTestDatabase } from "@/tests/helpers/database";

let handle: DatabaseHandle;

beforeAll(async () => {
  handle = await createTestDatabase();
  await saveInstalledStores(handle.db, {
    scopes: ["orders:read"],
    stores: [
      { storeId: 101, storeName: "Amina Couture", installId: 1, accessToken: "svcpk_live_a" },
      { storeId: 102, storeName: "Amina Maison", installId: 2, accessToken: "svcpk_live_b" },
      // Installed by someone else's browser: exists in the database, not in this session.
      { storeId: 201, storeName: "Karim Store", installId: 3, accessToken: "svcpk_live_c" },
    ],
  });
});
afterAll(async () => {
  await handle?.close();
});

describe("resolveStoreAccess", () => {
  it("grants a store of the session, with its install row", async () => {
    const access = await resolveStoreAccess(handle.db, [101, 102], "102");
    expect(access?.storeId).toBe(102);
    expect(access?.install).toMatchObject({ storeId: 102, storeName: "Amina Maison", state: "active" });
  });

  it("refuses a store installed in the database but outside this session", async () => {
    expect(await resolveStoreAccess(handle.db, [101, 102], "201")).toBeNull();
    expect(await resolveStoreAccess(handle.db, [], "101")).toBeNull();
  });

  it("refuses a session store without an install row", async () => {
    expect(await resolveStoreAccess(handle.db, [101, 555], "555")).toBeNull();
  });

  it("refuses ids that are not plain store ids, even when a session lists the number", async () => {
    for (const bad of ["", "0", "-101", "101.0", "0101", "1e2", "101 ", " 101", "abc", "99999999999", "2147483648"]) {
      expect(await resolveStoreAccess(handle.db, [101, 2147483648], bad)).toBeNull();
    }
  });
});

describe("parseStoreId", () => {
  it("reads digits only, within the database's integer range", () => {
    expect(parseStoreId("101")).toBe(101);
    expect(parseStoreId("2147483647")).toBe(2147483647);
    expect(parseStoreId("2147483648")).toBeNull();
    expect(parseStoreId("01")).toBeNull();
  });
});

describe("mergeStoreIds", () => {
  it("adds newly installed stores without duplicates, keeping the first order", () => {
    expect(mergeStoreIds([101, 102], [102, 103, 103])).toEqual([101, 102, 103]);
    expect(mergeStoreIds([], [101])).toEqual([101]);
  });
});
