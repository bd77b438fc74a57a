import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { count, eq, sql } from "drizzle-orm";
import type { DatabaseHandle } from "@/db/client";
import { findOrder, listOrderItems, listStatusHistory } from "@/db/queries/orders";
import { findEvent } from "@/db/queries/webhook-events";
import { installs, orders, webhookEvents } from "@/db/schema";
import { setLogSink } from "@/lib/log";
import { receiveWebhook } from "@/lib/webhooks/receive";
import { newEventId, sampleEnvelope, signDelivery } from "@/lib/webhooks/samples";
import { createTestDatabase, databaseKind } from "../helpers/database";

const SECRET = "svcwhsec_" + "5e".repeat(24);
const STORE = 101;

describe(`webhook receiver (${databaseKind()})`, () => {
  let handle: DatabaseHandle;
  const logLines: string[] = [];
  let restoreLog: () => void;

  beforeAll(async () => {
    handle = await createTestDatabase();
    await handle.db.insert(installs).values([
      { storeId: STORE, installId: 7001, storeName: "Amina Couture", scopes: ["orders:read"], tokenCiphertext: "sealed", tokenKeyId: "k1", installedAt: new Date("2026-01-01T00:00:00Z") },
      { storeId: 102, installId: 7002, storeName: "Amina Maison", scopes: ["orders:read"], tokenCiphertext: "sealed", tokenKeyId: "k1", installedAt: new Date("2026-03-01T00:00:00Z") },
    ]);
    restoreLog = setLogSink((line) => logLines.push(line));
  });
  afterAll(async () => {
    restoreLog?.();
    await handle?.close();
  });

  async function post(body: BodyInit, headers: Record<string, string>, options: { maxBodyBytes?: number } = {}) {
    const request = new Request("http://app.test/api/webhooks", { method: "POST", body, headers, duplex: "half" } as RequestInit);
    const response = await receiveWebhook(request, { db: handle.db, secret: SECRET, ...options });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  }

  function deliver(envelope: Record<string, unknown>, options: { secret?: string; timestamp?: number } = {}) {
    const signed = signDelivery(envelope, options.secret ?? SECRET, { timestamp: options.timestamp });
    return post(new Uint8Array(signed.body), signed.headers);
  }

  async function eventCount(): Promise<number> {
    const [row] = await handle.db.select({ n: count() }).from(webhookEvents);
    return row?.n ?? 0;
  }

  it("applies order.created: the order, its items and its first status", async () => {
    const envelope = sampleEnvelope("order.created", { storeId: STORE, orderId: 5001, at: new Date("2026-04-01T10:00:00Z") });
    const answer = await deliver(envelope);
    expect(answer).toEqual({ status: 200, json: { ok: true, duplicate: false, effect: "order_inserted" } });

    const order = await findOrder(handle.db, STORE, 5001);
    expect(order?.status).toBe("pending");
    expect(order?.total).toBe("7900.00");
    expect(order?.wilayaName).toBe("الجزائر");
    const items = await listOrderItems(handle.db, STORE, 5001);
    expect(items.map((item) => [item.position, item.productName, item.quantity])).toEqual([
      [0, "Caftan brodé", 1],
      [1, "Article 2", 2],
    ]);
    const history = await listStatusHistory(handle.db, STORE, 5001);
    expect(history.map((row) => [row.status, row.previousStatus, row.eventId])).toEqual([["pending", null, envelope.id]]);
  });

  it("acknowledges a redelivered event id without changing anything, even if its content differs", async () => {
    const id = newEventId();
    const first = sampleEnvelope("order.created", { id, storeId: STORE, orderId: 5002, at: new Date("2026-04-01T10:00:00Z") });
    expect((await deliver(first)).json.effect).toBe("order_inserted");
    const altered = sampleEnvelope("order.confirmed", { id, storeId: STORE, orderId: 5002, at: new Date("2026-04-01T11:00:00Z") });
    const again = await deliver(altered);
    expect(again).toEqual({ status: 200, json: { ok: true, duplicate: true } });
    expect((await findOrder(handle.db, STORE, 5002))?.status).toBe("pending");
    expect(await listStatusHistory(handle.db, STORE, 5002)).toHaveLength(1);
  });

  it("applies 25 concurrent copies of one event exactly once", async () => {
    const envelope = sampleEnvelope("order.confirmed", {
      storeId: STORE,
      orderId: 5003,
      previousStatus: "pending",
      at: new Date("2026-04-01T12:00:00Z"),
    });
    const signed = signDelivery(envelope, SECRET);
    const before = await eventCount();
    const answers = await Promise.all(Array.from({ length: 25 }, () => post(new Uint8Array(signed.body), signed.headers)));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(answers.filter((answer) => answer.json.duplicate === false)).toHaveLength(1);
    expect(answers.filter((answer) => answer.json.duplicate === true)).toHaveLength(24);
    expect(await eventCount()).toBe(before + 1);
    // A status event for an order never seen creates it.
    expect((await findOrder(handle.db, STORE, 5003))?.status).toBe("confirmed");
    expect(await listOrderItems(handle.db, STORE, 5003)).toHaveLength(2);
    const history = await listStatusHistory(handle.db, STORE, 5003);
    expect(history.map((row) => [row.status, row.previousStatus])).toEqual([["confirmed", "pending"]]);
  });

  it("never rolls an order back when an older status event arrives late, but keeps its history", async () => {
    const orderId = 5004;
    const createdAt = new Date("2026-04-02T09:00:00Z");
    await deliver(sampleEnvelope("order.created", { storeId: STORE, orderId, createdAt, at: createdAt }));
    const shipped = await deliver(
      sampleEnvelope("order.shipped", { storeId: STORE, orderId, createdAt, previousStatus: "confirmed", updatedAt: new Date("2026-04-02T12:00:00Z") }),
    );
    expect(shipped.json.effect).toBe("order_updated");
    const late = await deliver(
      sampleEnvelope("order.confirmed", { storeId: STORE, orderId, createdAt, previousStatus: "pending", updatedAt: new Date("2026-04-02T10:00:00Z") }),
    );
    expect(late).toEqual({ status: 200, json: { ok: true, duplicate: false, effect: "order_stale" } });

    const order = await findOrder(handle.db, STORE, orderId);
    expect(order?.status).toBe("shipped");
    expect(order?.updatedAt.toISOString()).toBe("2026-04-02T12:00:00.000Z");
    const history = await listStatusHistory(handle.db, STORE, orderId);
    expect(history.map((row) => [row.status, row.previousStatus])).toEqual([
      ["pending", null],
      ["confirmed", "pending"],
      ["shipped", "confirmed"],
    ]);
  });

  it("records a well-formed X-SVC-Delivery id with the event, and none for a malformed one", async () => {
    const deliveredWith = async (deliveryId: string) => {
      const envelope = sampleEnvelope("webhook.verify");
      const signed = signDelivery(envelope, SECRET, { deliveryId });
      expect((await post(new Uint8Array(signed.body), signed.headers)).status).toBe(200);
      return (await findEvent(handle.db, String(envelope.id)))?.deliveryId;
    };
    expect(await deliveredWith("dlv_01:a-b.c")).toBe("dlv_01:a-b.c");
    expect(await deliveredWith("d".repeat(200))).toBe("d".repeat(200));
    expect(await deliveredWith("d".repeat(201))).toBeNull();
    expect(await deliveredWith("dlv 1")).toBeNull();
  });

  it("acknowledges webhook.verify and unknown events, recording their ids", async () => {
    const verify = sampleEnvelope("webhook.verify");
    expect((await deliver(verify)).json).toEqual({ ok: true, duplicate: false, effect: "verified" });
    const future = sampleEnvelope("product.updated", { storeId: STORE });
    expect((await deliver(future)).json).toEqual({ ok: true, duplicate: false, effect: "unknown_event" });
    expect(await findEvent(handle.db, String(future.id))).not.toBeNull();
  });

  it("acknowledges a redelivered event that is not an order event as a duplicate, applying nothing again", async () => {
    const verify = sampleEnvelope("webhook.verify");
    expect((await deliver(verify)).json).toEqual({ ok: true, duplicate: false, effect: "verified" });
    expect(await deliver(verify)).toEqual({ status: 200, json: { ok: true, duplicate: true } });
    const future = sampleEnvelope("product.updated", { storeId: STORE });
    await deliver(future);
    const before = await eventCount();
    expect(await deliver(future)).toEqual({ status: 200, json: { ok: true, duplicate: true } });
    expect(await eventCount()).toBe(before);
  });

  it("acknowledges an order event for a store without an install and stores nothing but its id", async () => {
    const envelope = sampleEnvelope("order.created", { storeId: 999, orderId: 5005 });
    expect((await deliver(envelope)).json).toEqual({ ok: true, duplicate: false, effect: "no_install" });
    expect(await findOrder(handle.db, 999, 5005)).toBeNull();
    expect((await findEvent(handle.db, String(envelope.id)))?.storeId).toBe(999);
  });

  it("app.uninstalled marks the install uninstalled and destroys its token; a notice for another install id is ignored", async () => {
    const answer = await deliver(sampleEnvelope("app.uninstalled", { storeId: STORE, installId: 7001, at: new Date("2026-04-03T08:00:00Z") }));
    expect(answer.json.effect).toBe("install_uninstalled");
    const [row] = await handle.db.select().from(installs).where(eq(installs.storeId, STORE));
    expect(row?.state).toBe("uninstalled");
    expect(row?.tokenCiphertext).toBeNull();
    expect(row?.uninstalledAt?.toISOString()).toBe("2026-04-03T08:00:00.000Z");

    // A notice naming another install id (a forged or misrouted one) must not revoke store 102's install.
    const stale = await deliver(sampleEnvelope("app.uninstalled", { storeId: 102, installId: 7001, at: new Date("2026-04-03T09:00:00Z") }));
    expect(stale.json.effect).toBe("uninstall_ignored");
    const [kept] = await handle.db.select().from(installs).where(eq(installs.storeId, 102));
    expect(kept?.state).toBe("active");
    expect(kept?.tokenCiphertext).toBe("sealed");
  });

  it("answers 401 to every signature failure without touching stored data", async () => {
    const before = await eventCount();
    const envelope = sampleEnvelope("order.created", { storeId: 102, orderId: 5006 });
    const signed = signDelivery(envelope, SECRET);
    // An hour out, not 301 s: the receiver reads its own clock when the request arrives, and on a loaded machine the
    // deliveries before this one can take the second that turns now + 301 into 300 (accepted). The 300 s boundary
    // itself is held by tests/unit/webhook-signature.test.ts on an injected clock.
    const now = Math.floor(Date.now() / 1000);
    const cases = [
      await deliver(envelope, { secret: "svcwhsec_" + "00".repeat(24) }),
      await deliver(envelope, { timestamp: now - 3600 }),
      await deliver(envelope, { timestamp: now + 3600 }),
      await post(new Uint8Array(Buffer.concat([signed.body, Buffer.from(" ")])), signed.headers),
      await post(new Uint8Array(signed.body), { ...signed.headers, "x-svc-signature": "garbage" }),
      await post(new Uint8Array(signed.body), { "content-type": "application/json" }),
    ];
    expect(cases.map((answer) => answer.status)).toEqual([401, 401, 401, 401, 401, 401]);
    expect(cases.every((answer) => answer.json.error === "invalid_signature")).toBe(true);
    expect(await eventCount()).toBe(before);
    expect(await findOrder(handle.db, 102, 5006)).toBeNull();
    // Neither the secret nor a signature value ever reaches a log line.
    const v1 = signed.headers["x-svc-signature"]!.split("v1=")[1]!;
    expect(logLines.some((line) => line.includes("signature check failed"))).toBe(true);
    expect(logLines.some((line) => line.includes(SECRET) || line.includes(v1))).toBe(false);
  });

  it("answers 400 to a signed body that is not a valid envelope, storing nothing", async () => {
    const before = await eventCount();
    const notJson = Buffer.from("{not json", "utf8");
    const signedNotJson = signDelivery({}, SECRET);
    const { signatureHeaders } = await import("@/lib/webhooks/signature");
    const headers = { ...signedNotJson.headers, ...signatureHeaders(SECRET, notJson, Math.floor(Date.now() / 1000)) };
    expect((await post(new Uint8Array(notJson), headers)).status).toBe(400);

    const noId = { ...sampleEnvelope("order.created", { storeId: 102, orderId: 5007 }), id: "not-an-event-id" };
    expect((await deliver(noId)).json).toEqual({ ok: false, error: "invalid_envelope" });
    const wrongStore = sampleEnvelope("order.created", { storeId: 102, orderId: 5008 });
    (wrongStore.data as { order: Record<string, unknown> }).order.store_id = 101;
    expect((await deliver(wrongStore)).status).toBe(400);
    const noOrder = { ...sampleEnvelope("order.shipped", { storeId: 102 }), data: { previous_status: "confirmed" } };
    expect((await deliver(noOrder)).status).toBe(400);
    expect(await eventCount()).toBe(before);
  });

  it("refuses bodies over the limit with 413, by Content-Length and while streaming a chunked body", async () => {
    const envelope = sampleEnvelope("order.created", { storeId: 102, orderId: 5009 });
    const signed = signDelivery(envelope, SECRET);
    const declared = await post(new Uint8Array(signed.body), signed.headers, { maxBodyBytes: 64 });
    expect(declared.status).toBe(413);

    // A chunked body with no length: the receiver must stop pulling once past the limit.
    let pulled = 0;
    const chunk = new Uint8Array(16 * 1024).fill(0x20);
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += chunk.byteLength;
        if (pulled > 10 * 1024 * 1024) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const { "content-length": _ignored, ...headers } = signed.headers;
    const chunked = await post(stream, headers, { maxBodyBytes: 64 * 1024 });
    expect(chunked.status).toBe(413);
    expect(pulled).toBeLessThan(256 * 1024);
    expect(await findOrder(handle.db, 102, 5009)).toBeNull();
  });

  it("answers non-2xx when the database fails mid-transaction, and applies the redelivery", async () => {
    const envelope = sampleEnvelope("order.created", { storeId: 102, orderId: 5010 });
    // The event id insert succeeds, then the items write fails: the whole transaction must roll back.
    await handle.db.execute(sql`alter table order_items rename to order_items_away`);
    try {
      const failed = await deliver(envelope);
      expect(failed).toEqual({ status: 503, json: { ok: false, error: "temporarily_unavailable" } });
    } finally {
      await handle.db.execute(sql`alter table order_items_away rename to order_items`);
    }
    expect(await findEvent(handle.db, String(envelope.id))).toBeNull();
    expect(await findOrder(handle.db, 102, 5010)).toBeNull();

    const redelivered = await deliver(envelope);
    expect(redelivered).toEqual({ status: 200, json: { ok: true, duplicate: false, effect: "order_inserted" } });
    expect(await listOrderItems(handle.db, 102, 5010)).toHaveLength(2);
    const [row] = await handle.db.select({ n: count() }).from(orders).where(eq(orders.storeId, 102));
    expect(row?.n).toBe(1);
  });
});
