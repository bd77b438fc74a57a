import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { count, eq, sql } from "drizzle-orm";
import type { DatabaseHandle } from "@/db/client";
import { upsertOrder } from "@/db/queries/orders";
import { recordPoll } from "@/db/queries/sync-state";
import { recordEvent } from "@/db/queries/webhook-events";
import { installs, orderItems, orderStatusHistory, orders, orderSyncState, webhookEvents } from "@/db/schema";
import type { InstallState } from "@/lib/installs/state";
import { parsePlatformOrder } from "@/lib/platform";
import { purgeUninstalledStores } from "@/lib/webhooks/retention";
import { newEventId, sampleOrderData } from "@/lib/webhooks/samples";
import { createTestDatabase, databaseKind } from "../helpers/database";

const DAY = 24 * 60 * 60 * 1000;
const NOW = new Date("2026-06-30T12:00:00Z");

describe(`retention after uninstall (${databaseKind()})`, () => {
  let handle: DatabaseHandle;

  async function seedStore(storeId: number, install: { state: InstallState; uninstalledAt: Date | null; stateChangedAt?: Date }) {
    await handle.db.insert(installs).values({
      storeId,
      installId: 8000 + storeId,
      storeName: `Store ${storeId}`,
      state: install.state,
      uninstalledAt: install.uninstalledAt,
      stateChangedAt: install.stateChangedAt ?? install.uninstalledAt ?? new Date(NOW.getTime() - 90 * DAY),
      installedAt: new Date(NOW.getTime() - 90 * DAY),
    });
    const order = parsePlatformOrder(sampleOrderData({ storeId, orderId: storeId * 10, createdAt: new Date(NOW.getTime() - 60 * DAY) }));
    await upsertOrder(handle.db, storeId, order, { previousStatus: null });
    await recordEvent(handle.db, { id: newEventId(), event: "order.created", storeId, receivedAt: new Date(NOW.getTime() - 2 * DAY) });
    await recordPoll(handle.db, { storeId, now: NOW, sinceCursor: NOW, lastError: null });
  }

  async function rowsOf(storeId: number) {
    const counts = await Promise.all([
      handle.db.select({ n: count() }).from(installs).where(eq(installs.storeId, storeId)),
      handle.db.select({ n: count() }).from(orders).where(eq(orders.storeId, storeId)),
      handle.db.select({ n: count() }).from(orderItems).where(eq(orderItems.storeId, storeId)),
      handle.db.select({ n: count() }).from(orderStatusHistory).where(eq(orderStatusHistory.storeId, storeId)),
      handle.db.select({ n: count() }).from(webhookEvents).where(eq(webhookEvents.storeId, storeId)),
      handle.db.select({ n: count() }).from(orderSyncState).where(eq(orderSyncState.storeId, storeId)),
    ]);
    return counts.map(([row]) => row?.n ?? 0);
  }

  beforeAll(async () => {
    handle = await createTestDatabase();
  });
  // Each test starts from the same three stores: purging is what the tests do, so none may see another's purge.
  beforeEach(async () => {
    await handle.db.execute(
      sql`truncate table sessions, installs, webhook_events, orders, order_items, order_status_history, order_sync_state, rate_buckets cascade`,
    );
    await seedStore(1, { state: "uninstalled", uninstalledAt: new Date(NOW.getTime() - 31 * DAY) });
    await seedStore(2, { state: "uninstalled", uninstalledAt: new Date(NOW.getTime() - 10 * DAY) });
    // Uninstalled long ago, then installed again: the install is active and its data is kept.
    await seedStore(3, { state: "active", uninstalledAt: null });
    // Token revoked (a 401) 31 and 10 days ago: purged like uninstalled stores, from the moment it was recorded.
    await seedStore(4, { state: "revoked", uninstalledAt: null, stateChangedAt: new Date(NOW.getTime() - 31 * DAY) });
    await seedStore(5, { state: "revoked", uninstalledAt: null, stateChangedAt: new Date(NOW.getTime() - 10 * DAY) });
    // Suspended long ago: the platform may lift it, so nothing is purged.
    await seedStore(6, { state: "app_suspended", uninstalledAt: null, stateChangedAt: new Date(NOW.getTime() - 90 * DAY) });
    await recordEvent(handle.db, { id: newEventId(), event: "webhook.verify", storeId: 0, receivedAt: new Date(NOW.getTime() - 40 * DAY) });
  });
  afterAll(async () => {
    await handle?.close();
  });

  it("a dry run lists the stores past retention and deletes nothing", async () => {
    const result = await purgeUninstalledStores(handle.db, { now: NOW, dryRun: true });
    expect(result.storeIds).toEqual([1, 4]);
    expect(await rowsOf(1)).toEqual([1, 1, 2, 1, 1, 1]);
  });

  it("deletes every row of a store uninstalled more than 30 days ago, and nothing of the others", async () => {
    const result = await purgeUninstalledStores(handle.db, { now: NOW });
    expect(result.storeIds).toEqual([1, 4]);
    expect(result.orders).toBe(2);
    // The purged stores' event ids, and the 40-day-old verify event id.
    expect(result.events).toBe(3);
    expect(await rowsOf(1)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(await rowsOf(4)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(await rowsOf(5)).toEqual([1, 1, 2, 1, 1, 1]);
    expect(await rowsOf(6)).toEqual([1, 1, 2, 1, 1, 1]);
    expect(await rowsOf(2)).toEqual([1, 1, 2, 1, 1, 1]);
    expect(await rowsOf(3)).toEqual([1, 1, 2, 1, 1, 1]);
  });

  it("forgets every store's event ids past retention, a batch at a time, and keeps the newer ones", async () => {
    // Stores 3 and 5 are kept; their event ids are not: 7 old ids of store 3 (more than two batches of 3), 4 of
    // store 5 (one full batch and one of one), and the ids of the last 30 days stay.
    const old = new Date(NOW.getTime() - 31 * DAY);
    const recent = new Date(NOW.getTime() - 29 * DAY);
    for (let index = 0; index < 7; index++) await recordEvent(handle.db, { id: newEventId(), event: "order.updated", storeId: 3, receivedAt: old });
    for (let index = 0; index < 4; index++) await recordEvent(handle.db, { id: newEventId(), event: "order.updated", storeId: 5, receivedAt: old });
    await recordEvent(handle.db, { id: newEventId(), event: "order.updated", storeId: 3, receivedAt: recent });
    const result = await purgeUninstalledStores(handle.db, { now: NOW, eventBatch: 3 });
    // Stores 1 and 4 purged (one id each), the verify event's, then 7 + 4 old ids of the kept stores.
    expect(result.events).toBe(3 + 11);
    const left = await handle.db
      .select({ storeId: webhookEvents.storeId, n: count() })
      .from(webhookEvents)
      .groupBy(webhookEvents.storeId)
      .orderBy(webhookEvents.storeId);
    // Each kept store's seeded id (2 days old) and store 3's 29-day-old one.
    expect(left).toEqual([
      { storeId: 2, n: 1 },
      { storeId: 3, n: 2 },
      { storeId: 5, n: 1 },
      { storeId: 6, n: 1 },
    ]);
  });

  it("the same store purged later, once its retention has run out", async () => {
    expect((await purgeUninstalledStores(handle.db, { now: NOW })).storeIds).toEqual([1, 4]);
    const result = await purgeUninstalledStores(handle.db, { now: new Date(NOW.getTime() + 21 * DAY) });
    expect(result.storeIds).toEqual([2, 5]);
    expect(await rowsOf(2)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(await rowsOf(5)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(await rowsOf(6)).toEqual([1, 1, 2, 1, 1, 1]);
    expect((await rowsOf(3))[1]).toBe(1);
  });
});
