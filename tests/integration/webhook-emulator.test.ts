import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import type { DatabaseHandle } from "@/db/client";
import { findOrder, listOrderItems, listStatusHistory } from "@/db/queries/orders";
import { installs } from "@/db/schema";
import type { RunningEmulator } from "@/emulator/src/index";
import { addFault } from "@/emulator/src/webhooks/faults";
import { loadAccessToken, saveInstalledStores } from "@/lib/installs/tokens";
import { setLogSink } from "@/lib/log";
import { databaseKind } from "../helpers/database";
import { startEmulatorWithReceiver, type EmulatorWithReceiver } from "../helpers/emulator-with-receiver";

/**
 * The receiver against the emulator's real order checker and dispatcher: signed HTTP deliveries, retries and all.
 */
describe(`webhooks from the emulator's dispatcher (${databaseKind()})`, () => {
  let setup: EmulatorWithReceiver | undefined;
  let handle: DatabaseHandle;
  let emulator: RunningEmulator;
  let restoreLog: () => void;

  beforeAll(async () => {
    restoreLog = setLogSink(() => {});
    setup = await startEmulatorWithReceiver(101, "Amina Couture");
    ({ handle, emulator } = setup);
  });
  afterAll(async () => {
    await setup?.close();
    restoreLog?.();
  });

  function deliveriesOf(eventId: string) {
    return emulator.ctx.state.deliveries.filter((delivery) => delivery.eventId === eventId);
  }

  it("an order placed on the platform reaches the database, then its status change", async () => {
    const placed = emulator.control.placeOrder(101);
    await emulator.control.tick();

    const order = await findOrder(handle.db, 101, placed.id);
    expect(order?.orderNumber).toBe(placed.order_number);
    expect(order?.status).toBe("pending");
    expect(Number(order?.total)).toBe(placed.total);
    expect((await listOrderItems(handle.db, 101, placed.id)).map((item) => item.productName)).toEqual(
      placed.items.map((item) => item.product_name),
    );
    const created = emulator.ctx.state.deliveries.find(
      (delivery) => delivery.event === "order.created" && delivery.body.includes(`"id":${placed.id},`),
    );
    expect(created?.state).toBe("succeeded");

    emulator.control.advanceClock(60);
    emulator.control.setOrderStatus(placed.id, "confirmed");
    await emulator.control.tick();
    expect((await findOrder(handle.db, 101, placed.id))?.status).toBe("confirmed");
    const history = await listStatusHistory(handle.db, 101, placed.id);
    expect(history.map((row) => [row.status, row.previousStatus])).toEqual([
      ["pending", null],
      ["confirmed", "pending"],
    ]);
  });

  it("a database failure answers non-2xx, and the platform's redelivery is applied", async () => {
    const placed = emulator.control.placeOrder(101);
    await handle.db.execute(sql`alter table order_items rename to order_items_away`);
    try {
      await emulator.control.tick();
    } finally {
      await handle.db.execute(sql`alter table order_items_away rename to order_items`);
    }
    const delivery = emulator.ctx.state.deliveries.find(
      (candidate) => candidate.event === "order.created" && candidate.body.includes(`"id":${placed.id},`),
    );
    expect(delivery?.state).toBe("pending");
    expect(delivery?.attempts.map((attempt) => attempt.status)).toEqual([503]);
    expect(await findOrder(handle.db, 101, placed.id)).toBeNull();

    // The platform waits at least a minute before the second attempt.
    emulator.control.advanceClock(61);
    await emulator.control.tick();
    expect(deliveriesOf(delivery!.eventId)[0]?.attempts.map((attempt) => attempt.status)).toEqual([503, 200]);
    expect((await findOrder(handle.db, 101, placed.id))?.status).toBe("pending");
    expect(await listOrderItems(handle.db, 101, placed.id)).toHaveLength(placed.items.length);
  });

  it("a delivery sent twice by the platform is applied once", async () => {
    addFault(emulator.ctx, "duplicate", 1);
    const placed = emulator.control.placeOrder(101);
    emulator.control.advanceClock(60);
    await emulator.control.tick();
    const delivery = emulator.ctx.state.deliveries.find((candidate) => candidate.body.includes(`"id":${placed.id},`));
    expect(delivery?.attempts.map((attempt) => attempt.status)).toEqual([200, 200]);
    expect(delivery?.attempts[1]?.responseSnippet).toContain('"duplicate":true');
    expect(await listStatusHistory(handle.db, 101, placed.id)).toHaveLength(1);
  });

  it("a status event delivered after a newer one does not roll the order back", async () => {
    const placed = emulator.control.placeOrder(101);
    emulator.control.advanceClock(60);
    await emulator.control.tick();
    // Hold the confirmed event back with a failure, so it is retried in the same run as the shipped one, and have
    // the dispatcher send that run newest first.
    emulator.control.advanceClock(60);
    emulator.control.setOrderStatus(placed.id, "confirmed");
    await handle.db.execute(sql`alter table order_items rename to order_items_away`);
    try {
      await emulator.control.tick();
    } finally {
      await handle.db.execute(sql`alter table order_items_away rename to order_items`);
    }
    emulator.control.advanceClock(61);
    emulator.control.setOrderStatus(placed.id, "shipped");
    addFault(emulator.ctx, "reorder", 1);
    await emulator.control.tick();

    const ofOrder = emulator.ctx.state.deliveries.filter((delivery) => delivery.body.includes(`"id":${placed.id},`));
    const confirmed = ofOrder.find((delivery) => delivery.event === "order.confirmed");
    const shipped = ofOrder.find((delivery) => delivery.event === "order.shipped");
    expect(confirmed?.state).toBe("succeeded");
    expect(shipped?.state).toBe("succeeded");
    // The shipped event really did arrive first.
    expect(Date.parse(shipped!.attempts.at(-1)!.at)).toBeLessThanOrEqual(Date.parse(confirmed!.attempts.at(-1)!.at));
    expect(confirmed?.attempts.at(-1)?.responseSnippet).toContain("order_stale");
    expect((await findOrder(handle.db, 101, placed.id))?.status).toBe("shipped");
    expect((await listStatusHistory(handle.db, 101, placed.id)).map((row) => row.status).sort()).toEqual(["confirmed", "pending", "shipped"]);
  });

  it("an uninstall revokes the install: state recorded, token destroyed, data kept", async () => {
    // A store of its own, so the other tests keep 101 installed whatever order they run in.
    const minted = emulator.control.mintInstall(102);
    await saveInstalledStores(handle.db, {
      scopes: ["orders:read"],
      stores: [{ storeId: 102, storeName: "Amina Maison", installId: minted.installId, accessToken: minted.accessToken }],
    });
    emulator.control.placeOrder(102);
    emulator.control.advanceClock(60);
    await emulator.control.tick();
    emulator.control.advanceClock(60);
    emulator.control.uninstall(102);
    await emulator.control.tick();

    const [row] = await handle.db.select().from(installs).where(eq(installs.storeId, 102));
    expect(row?.state).toBe("uninstalled");
    expect(row?.tokenCiphertext).toBeNull();
    expect(row?.uninstalledAt).not.toBeNull();
    expect(await loadAccessToken(handle.db, 102)).toBeNull();
    expect((await loadAccessToken(handle.db, 101))?.token).toBeTruthy();
    const notice = emulator.ctx.state.deliveries.find((delivery) => delivery.event === "app.uninstalled");
    expect(notice?.state).toBe("succeeded");
    // Orders stay for the retention period.
    const [count] = await handle.db.execute<{ n: number }>(sql`select count(*)::int as n from orders where store_id = 102`).then(
      (result) => (Array.isArray(result) ? result : (result as unknown as { rows: { n: number }[] }).rows),
    );
    expect(count?.n).toBeGreaterThan(0);
  });
});
