import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { findEvent } from "@/db/queries/webhook-events";
import { webhookEvents } from "@/db/schema";
import { configureLog, setLogSink } from "@/lib/log";
import type { FollowUp } from "@/lib/webhooks/handlers";
import { receiveWebhookOutcome } from "@/lib/webhooks/receive";
import { sampleEnvelope } from "@/lib/webhooks/samples";
import { createTestDatabase, databaseKind } from "../helpers/database";
import { saveFixtureStores } from "../helpers/fixture-stores";
import { signedWebhookRequest } from "../helpers/webhook-request";

/**
 * A webhook's follow-up (lib/jobs/webhook-follow-ups.ts sends a job from one) runs in the transaction that claims the
 * event, for any event, not only orders: once per event, not for a duplicate, and a follow-up that fails leaves the
 * event unclaimed so the platform's retry brings it back. An accepted delivery and a duplicate each leave a debug
 * line. The follow-ups here record what they were given; tests/integration/jobs.test.ts sends a real job.
 */

const SECRET = "svcwhsec_" + "5e".repeat(24);

let handle: DatabaseHandle;
let lines: Record<string, unknown>[] = [];
let restore: (() => void)[] = [];

beforeAll(async () => {
  handle = await createTestDatabase();
  await saveFixtureStores(handle.db);
  restore = [setLogSink((line) => lines.push(JSON.parse(line) as Record<string, unknown>)), configureLog({ level: "debug", format: "json" })];
});
afterAll(async () => {
  for (const undo of restore.reverse()) undo();
  await handle?.close();
});
beforeEach(() => {
  lines = [];
});

function deliver(envelope: Record<string, unknown>, followUps: Partial<Record<string, FollowUp>>, deliveryId?: string) {
  const request = signedWebhookRequest(envelope, SECRET, { deliveryId });
  return receiveWebhookOutcome(request, { db: handle.db, secret: SECRET, followUps });
}

describe(`a webhook's follow-up (${databaseKind()})`, () => {
  it("runs once for an app event, with the event, and not for its duplicate; each answer leaves its debug line", async () => {
    const seen: unknown[] = [];
    const followUps = { "app.uninstalled": async (_tx: unknown, event: { id: string; event: string }) => void seen.push([event.id, event.event]) };
    const envelope = sampleEnvelope("app.uninstalled", { storeId: 102, installId: 2 });
    expect(await deliver(envelope, followUps)).toMatchObject({ status: 200, body: { ok: true, duplicate: false } });
    expect(lines.map((line) => line.msg)).toEqual(["webhook applied"]);
    expect(await deliver(envelope, followUps)).toMatchObject({ status: 200, body: { ok: true, duplicate: true } });
    expect(lines.map((line) => line.msg)).toEqual(["webhook applied", "webhook duplicate acknowledged"]);
    expect(seen).toEqual([[String(envelope.id), "app.uninstalled"]]);
  });

  it("that fails leaves the event unclaimed: the answer is 503 and the redelivery is applied", async () => {
    const envelope = sampleEnvelope("app.uninstalled", { storeId: 201, installId: 3 });
    const failing = { "app.uninstalled": async () => Promise.reject(new Error("queue unavailable")) };
    expect(await deliver(envelope, failing)).toMatchObject({ status: 503, body: { ok: false, error: "temporarily_unavailable" } });
    expect(await findEvent(handle.db, String(envelope.id))).toBeNull();
    expect(await deliver(envelope, {})).toMatchObject({ status: 200, body: { ok: true, duplicate: false } });
  });

  it("of an order event, written as a statement, runs inside the event's own statement: only for a claimed event of an installed store", async () => {
    // The follow-up marks each event it ran for with an event row of its own; its function form must not run.
    const marking: FollowUp = Object.assign(async () => Promise.reject(new Error("ran as a function")), {
      inStatement: async (event: { id: string }) =>
        ({ param, claimed }: { param: (n: number) => string; claimed: string }) => ({
          sql: `insert into webhook_events (id, event, store_id) select ${param(1)}::text, ${param(2)}::text, 101 where ${claimed} returning 1`,
          params: [`${event.id}_marked`, "test.marked"],
        }),
    });
    const marked = async (envelope: Record<string, unknown>) => (await findEvent(handle.db, `${String(envelope.id)}_marked`)) !== null;
    const created = sampleEnvelope("order.created", { storeId: 101, orderId: 8802 });
    expect(await deliver(created, { "order.created": marking })).toMatchObject({ status: 200, body: { effect: "order_inserted" } });
    expect(await marked(created)).toBe(true);
    expect(lines.map((line) => line.msg)).toEqual(["webhook applied"]);
    await handle.db.delete(webhookEvents).where(eq(webhookEvents.id, `${String(created.id)}_marked`));
    expect(await deliver(created, { "order.created": marking })).toMatchObject({ status: 200, body: { duplicate: true } });
    expect(await marked(created)).toBe(false);
    const noInstall = sampleEnvelope("order.created", { storeId: 999, orderId: 8803 });
    expect(await deliver(noInstall, { "order.created": marking })).toMatchObject({ status: 200, body: { effect: "no_install" } });
    expect(await marked(noInstall)).toBe(false);
  });

  it("of an order event, that cannot be written as a statement, runs in the claim's transaction", async () => {
    let ran = 0;
    const fallback: FollowUp = Object.assign(async () => void (ran += 1), { inStatement: async () => null });
    expect(await deliver(sampleEnvelope("order.created", { storeId: 101, orderId: 8804 }), { "order.created": fallback })).toMatchObject({ status: 200, body: { effect: "order_inserted" } });
    expect(ran).toBe(1);
  });

  it("of an order event keeps the delivery id with the claimed event", async () => {
    const envelope = sampleEnvelope("order.created", { storeId: 101, orderId: 8801 });
    let ran = 0;
    expect(await deliver(envelope, { "order.created": async () => void (ran += 1) }, "dlv_follow_up_1")).toMatchObject({ status: 200, body: { effect: "order_inserted" } });
    expect(ran).toBe(1);
    expect((await findEvent(handle.db, String(envelope.id)))?.deliveryId).toBe("dlv_follow_up_1");
  });
});
