import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { findBackfill, savePage, startBackfillRow } from "@/db/queries/backfills";
import { createTestDatabase } from "@/tests/helpers/database";

/**
 * An import's progress moves only from the cursor the page was read from (db/queries/backfills.ts savePage, a
 * compare-and-set in its UPDATE): two chunks that read the same page, one after the other or at once, count it
 * once, and a chunk that saves late never moves the cursor back.
 */

let handle: DatabaseHandle;
let nextStore = 500;

async function freshRun(): Promise<number> {
  const storeId = nextStore++;
  await startBackfillRow(handle.db, { storeId, runId: `run-${storeId}`, at: new Date() });
  return storeId;
}

function page(storeId: number, from: string | null, cursor: string | null, imported = 50) {
  return savePage(handle.db, { storeId, runId: `run-${storeId}`, from, cursor, imported, newest: null, at: new Date() });
}

beforeAll(async () => {
  handle = await createTestDatabase();
});

afterAll(async () => {
  await handle?.close();
});

describe("savePage", () => {
  it("advances page after page from the cursor each was read from", async () => {
    const storeId = await freshRun();
    expect(await page(storeId, null, "c1")).toBe(true);
    expect(await page(storeId, "c1", "c2")).toBe(true);
    expect(await page(storeId, "c2", "c3", 20)).toBe(true);
    expect(await findBackfill(handle.db, storeId)).toMatchObject({ cursor: "c3", pages: 3, imported: 120 });
  });

  it("counts a page two overlapping chunks read once, and leaves the cursor where the first put it", async () => {
    const storeId = await freshRun();
    expect(await page(storeId, null, "c1")).toBe(true);
    // A retried chunk that read the first page again.
    expect(await page(storeId, null, "c1")).toBe(false);
    expect(await page(storeId, "c1", "c2")).toBe(true);
    // A late chunk saving the page after c1 once more, with the cursor the platform gave it then.
    expect(await page(storeId, "c1", "c2-late")).toBe(false);
    expect(await findBackfill(handle.db, storeId)).toMatchObject({ cursor: "c2", pages: 2, imported: 100 });
  });

  it("never moves the cursor back to where a late chunk started", async () => {
    const storeId = await freshRun();
    expect(await page(storeId, null, "c1")).toBe(true);
    expect(await page(storeId, "c1", "c2")).toBe(true);
    // A chunk that read from the start long ago and saves now would put the cursor back to c1.
    expect(await page(storeId, null, "c1")).toBe(false);
    expect(await findBackfill(handle.db, storeId)).toMatchObject({ cursor: "c2", pages: 2, imported: 100 });
  });

  it("lets one of two chunks saving from the same cursor at once win, in their own transactions", async () => {
    const storeId = await freshRun();
    expect(await page(storeId, null, "c1")).toBe(true);
    const saved = await Promise.all(
      ["c2-a", "c2-b"].map((next) =>
        handle.db.transaction((tx) => savePage(tx, { storeId, runId: `run-${storeId}`, from: "c1", cursor: next, imported: 50, newest: null, at: new Date() })),
      ),
    );
    expect(saved.filter(Boolean)).toHaveLength(1);
    const row = await findBackfill(handle.db, storeId);
    expect(row).toMatchObject({ pages: 2, imported: 100 });
    expect(row?.cursor).toBe(saved[0] ? "c2-a" : "c2-b");
  });

  it("saves nothing for a run a re-install retired", async () => {
    const storeId = await freshRun();
    expect(await page(storeId, null, "c1")).toBe(true);
    await startBackfillRow(handle.db, { storeId, runId: "run-new", at: new Date() });
    expect(await page(storeId, null, "c1")).toBe(false);
    expect(await findBackfill(handle.db, storeId)).toMatchObject({ runId: "run-new", cursor: null, pages: 0, imported: 0 });
  });
});
