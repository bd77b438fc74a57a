import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { and, count, eq, sql } from "drizzle-orm";
import type { DatabaseHandle } from "@/db/client";
import { findInstall } from "@/db/queries/installs";
import { findOrder, listStatusHistory } from "@/db/queries/orders";
import { findSyncState } from "@/db/queries/sync-state";
import { savePage, startBackfillRow } from "@/db/queries/backfills";
import { orders } from "@/db/schema";
import { DEV_APP } from "@/lib/dev-app";
import { startEmulator, type RunningEmulator } from "@/emulator/src/index";
import { saveInstalledStores } from "@/lib/installs/tokens";
import { setLogSink } from "@/lib/log";
import { cronAuthorized } from "@/lib/sync/cron-auth";
import { pollableStoreIds, SYNC_OVERLAP_MS, syncStoreOrders, type SyncOptions } from "@/lib/sync/orders-sync";
import { startWebhookServer, type WebhookServer } from "@/lib/webhooks/node-server";
import { createTestDatabase, databaseKind } from "../helpers/database";

/** Polling GET /v1/orders through the real API client against the emulator, converging with webhooks. */
describe(`order sync (${databaseKind()})`, () => {
  let handle: DatabaseHandle;
  let emulator: RunningEmulator;
  let receiver: WebhookServer;
  let restoreLog: () => void;
  let options: SyncOptions;

  beforeAll(async () => {
    restoreLog = setLogSink(() => {});
    handle = await createTestDatabase();
    receiver = await startWebhookServer({ db: handle.db, secret: DEV_APP.webhookSecret });
  });
  // Every test starts from a fresh platform and an app that has installed 101-103 and synced nothing, so no test
  // leans on what another left behind (the suite runs in a random order).
  beforeEach(async () => {
    await emulator?.close();
    await handle.db.execute(
      sql`truncate table installs, webhook_events, orders, order_items, order_status_history, order_sync_state, order_backfills, rate_buckets cascade`,
    );
    emulator = await startEmulator({ port: 0, appUrl: receiver.url, dataFile: null, autoTick: false, quiet: true });
    options = { platform: { baseUrl: emulator.url } };
    for (const [storeId, storeName] of [
      [101, "Amina Couture"],
      [102, "Amina Maison"],
      [103, "Amina Kids"],
    ] as const) {
      const minted = emulator.control.mintInstall(storeId, storeId === 103 ? ["products:read"] : undefined);
      await saveInstalledStores(handle.db, {
        scopes: storeId === 103 ? ["products:read"] : ["orders:read", "products:read"],
        stores: [{ storeId, storeName, installId: minted.installId, accessToken: minted.accessToken }],
      });
    }
  });
  afterAll(async () => {
    await emulator?.close();
    await receiver?.close();
    await handle?.close();
    restoreLog?.();
  });

  const platformOrders = (storeId: number) => emulator.ctx.state.orders.filter((order) => order.store_id === storeId);
  async function storedCount(storeId: number): Promise<number> {
    const [row] = await handle.db.select({ n: count() }).from(orders).where(eq(orders.storeId, storeId));
    return row?.n ?? 0;
  }

  it("backfills every order of a store and keeps the newest created_at as its mark", async () => {
    const expected = platformOrders(101);
    expect(expected.length).toBeGreaterThan(0);
    const result = await syncStoreOrders(handle.db, 101, { ...options, full: true });
    expect(result).toMatchObject({ storeId: 101, outcome: "synced", fetched: expected.length, inserted: expected.length, updated: 0 });
    expect(await storedCount(101)).toBe(expected.length);
    for (const order of expected.slice(0, 5)) {
      const stored = await findOrder(handle.db, 101, order.id);
      expect(stored?.status).toBe(order.status);
      expect(stored?.updatedAt.toISOString()).toBe(new Date(order.updated_at).toISOString());
    }
    const newest = Math.max(...expected.map((order) => Date.parse(order.created_at)));
    const state = await findSyncState(handle.db, 101);
    expect(state?.sinceCursor?.getTime()).toBe(newest);
    expect(state?.lastError).toBeNull();
  });

  it("polls only from the mark on, and converges with the webhooks on the same rows", async () => {
    await syncStoreOrders(handle.db, 101, { ...options, full: true });
    const placed = emulator.control.placeOrder(101);
    const result = await syncStoreOrders(handle.db, 101, options);
    expect(result.outcome).toBe("synced");
    expect(result.inserted).toBe(1);
    // Orders older than the mark minus the overlap are not read again.
    const mark = Math.max(...platformOrders(101).filter((order) => order.id !== placed.id).map((order) => Date.parse(order.created_at)));
    const rereadable = platformOrders(101).filter((order) => Date.parse(order.created_at) >= mark - SYNC_OVERLAP_MS).length;
    expect(result.fetched).toBe(rereadable);
    expect(result.fetched).toBeLessThan(platformOrders(101).length);

    // The webhook for the same order lands on the row the poll wrote: same version, nothing changes.
    await emulator.control.tick();
    expect(await storedCount(101)).toBe(platformOrders(101).length);
    const created = emulator.ctx.state.deliveries.find((delivery) => delivery.body.includes(`"id":${placed.id},`));
    expect(created?.attempts.at(-1)?.responseSnippet).toContain("order_stale");

    // A status change by webhook, then a poll carrying the same version: no rollback, no duplicate history.
    emulator.control.advanceClock(60);
    emulator.control.setOrderStatus(placed.id, "confirmed");
    await emulator.control.tick();
    await syncStoreOrders(handle.db, 101, options);
    expect((await findOrder(handle.db, 101, placed.id))?.status).toBe("confirmed");
    expect((await listStatusHistory(handle.db, 101, placed.id)).map((row) => row.status)).toEqual(["pending", "confirmed"]);
  });

  it("a poll that sees a newer version updates the order and records the status change", async () => {
    const placed = emulator.control.placeOrder(102);
    await syncStoreOrders(handle.db, 102, { ...options, full: true });
    emulator.control.advanceClock(60);
    emulator.control.setOrderStatus(placed.id, "shipped");
    const result = await syncStoreOrders(handle.db, 102, options);
    expect(result.updated).toBe(1);
    const stored = await findOrder(handle.db, 102, placed.id);
    expect(stored?.status).toBe("shipped");
    expect(stored?.trackingNumber).toBe(placed.tracking_number);
    const history = await listStatusHistory(handle.db, 102, placed.id);
    expect(history.map((row) => [row.status, row.previousStatus])).toEqual([
      ["pending", null],
      ["shipped", "pending"],
    ]);
  });

  it("a poll that fails part-way keeps the old mark, so the next poll reads again the orders it never reached", async () => {
    await syncStoreOrders(handle.db, 101, { ...options, full: true });
    const markBefore = (await findSyncState(handle.db, 101))?.sinceCursor;
    expect(markBefore).toBeTruthy();
    emulator.control.advanceClock(3_600);
    const placed = Array.from({ length: 60 }, () => emulator.control.placeOrder(101));
    // The first page (50, newest first) arrives; every later call meets a 500 (the client gives up after one try).
    let calls = 0;
    const faultAfterFirstPage: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (++calls === 1) emulator.control.addFaults([{ kind: "status", status: 500, times: 10 }]);
      return response;
    };
    const failed = await syncStoreOrders(handle.db, 101, {
      ...options,
      platform: { ...options.platform, fetch: faultAfterFirstPage, retry: { maxAttempts: 1 } },
    });
    expect(failed.fetched).toBe(50);
    expect(failed.outcome).toBe("failed");
    expect((await findSyncState(handle.db, 101))?.sinceCursor?.getTime()).toBe(markBefore?.getTime());
    emulator.control.clearFaults();
    const next = await syncStoreOrders(handle.db, 101, options);
    expect(next.outcome).toBe("synced");
    for (const order of placed) expect(await findOrder(handle.db, 101, order.id)).not.toBeNull();
    expect(await storedCount(101)).toBe(platformOrders(101).length);
  });

  it("polls only the stores it may read; during an import, only what is newer than the import saw, leaving the mark", async () => {
    expect(await pollableStoreIds(handle.db)).toEqual([101, 102]);
    await startBackfillRow(handle.db, { storeId: 102, runId: "run-1", at: new Date() });
    // Before the import's first page there is nothing to poll from.
    expect(await syncStoreOrders(handle.db, 102, options)).toMatchObject({ outcome: "skipped", fetched: 0 });
    const newest = Math.max(...platformOrders(102).map((order) => Date.parse(order.created_at)));
    await savePage(handle.db, { storeId: 102, runId: "run-1", from: null, cursor: "next-page", imported: 50, newest: new Date(newest), at: new Date() });
    emulator.control.advanceClock(3_600);
    const placed = emulator.control.placeOrder(102);
    const polled = await syncStoreOrders(handle.db, 102, options);
    expect(polled.outcome).toBe("synced");
    // From the newest order the import saw, minus the overlap: not the whole store again.
    const fromImport = platformOrders(102).filter((order) => Date.parse(order.created_at) >= newest - SYNC_OVERLAP_MS).length;
    expect(polled.fetched).toBe(fromImport);
    expect(polled.fetched).toBeLessThan(platformOrders(102).length);
    expect(await findOrder(handle.db, 102, placed.id)).not.toBeNull();
    // The mark is the import's to set, once its last page is stored.
    expect((await findSyncState(handle.db, 102))?.sinceCursor ?? null).toBeNull();
    expect((await syncStoreOrders(handle.db, 103, options)).outcome).toBe("skipped");
  });

  it("a refused poll is recorded on the store, and a dead token marks the install", async () => {
    const shipped = emulator.control.placeOrder(102);
    emulator.control.setOrderStatus(shipped.id, "shipped");
    await syncStoreOrders(handle.db, 102, { ...options, full: true });
    emulator.control.uninstall(102);
    const result = await syncStoreOrders(handle.db, 102, options);
    expect(result.outcome).toBe("failed");
    expect(result.detail).toMatch(/401|unauthorized|revoked/i);
    expect(result.detail).not.toContain("svcpk_live_");
    const state = await findSyncState(handle.db, 102);
    expect(state?.lastError).toBe(result.detail);
    expect((await findInstall(handle.db, 102))?.state).toBe("revoked");
    // Orders already synced stay.
    expect(await storedCount(102)).toBeGreaterThan(0);
    const [row] = await handle.db
      .select({ n: count() })
      .from(orders)
      .where(and(eq(orders.storeId, 102), eq(orders.status, "shipped")));
    expect(row?.n).toBeGreaterThan(0);
  });

  it("the cron route's bearer check", () => {
    const secret = "a-cron-secret-of-some-length";
    expect(cronAuthorized(`Bearer ${secret}`, secret)).toBe(true);
    expect(cronAuthorized(`bearer ${secret}`, secret)).toBe(true);
    expect(cronAuthorized(`Bearer ${secret}x`, secret)).toBe(false);
    expect(cronAuthorized(secret, secret)).toBe(false);
    expect(cronAuthorized(null, secret)).toBe(false);
    // No secret configured: the route is off, whatever is sent.
    expect(cronAuthorized("Bearer ", undefined)).toBe(false);
    expect(cronAuthorized("Bearer undefined", undefined)).toBe(false);
  });
});
