import { beforeEach, describe, expect, it } from "vitest";
import { mintInstall, placeTestOrder, setAppStatus, setOrderStatus, setStorePlan, uninstallApp } from "../src/actions";
import { DEV_APP } from "@/lib/dev-app";
import type { EmulatorContext } from "../src/http/types";
import type { OrderStatus } from "../src/model";
import { addFault } from "../src/webhooks/faults";
import { rotateSigningSecret } from "../src/webhooks/endpoint";
import { verifySignature } from "../src/webhooks/signing";
import { createTestContext, startReceiver, type ReceivedRequest } from "../src/webhooks/test-kit";
import { postWebhook } from "../src/webhooks/transport";
import { startReceiverForFile } from "./support";

type Envelope = { id: string; event: string; created_at: string; store_id: number; data: Record<string, unknown> };

const receiver = startReceiverForFile();
let ctx: EmulatorContext;
beforeEach(() => {
  ctx = createTestContext({ appUrl: receiver.origin });
});

const app = () => ctx.state.apps[0]!;
const envelopes = () => receiver.requests.map((request) => JSON.parse(request.body.toString("utf8")) as Envelope);
const events = () => envelopes().map((envelope) => envelope.event);
const header = (request: ReceivedRequest, name: string) => request.headers[name.toLowerCase()] as string | undefined;

describe("order checker", () => {
  it("does not announce orders that existed before the install", async () => {
    mintInstall(ctx, 101);
    expect(ctx.state.orders.some((order) => order.store_id === 101)).toBe(true);
    await ctx.webhooks.tick();
    expect(receiver.requests).toHaveLength(0);
  });

  it("announces a new order once, as order.created with the order minus items and the items", async () => {
    mintInstall(ctx, 101);
    const order = placeTestOrder(ctx, 101);
    await ctx.webhooks.tick();
    await ctx.webhooks.tick();
    expect(events()).toEqual(["order.created"]);
    const envelope = envelopes()[0]!;
    expect(envelope.id).toMatch(/^evt_[0-9a-f]+$/);
    expect(envelope.store_id).toBe(101);
    expect(envelope.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+00:00$/);
    const { items, ...rest } = order;
    expect(envelope.data).toEqual({ order: rest, items });
    expect(envelope.data).not.toHaveProperty("previous_status");
  });

  it.each<OrderStatus>(["confirmed", "processing", "shipped", "delivered", "cancelled", "returned"])(
    "a change to %s sends order.<status> with previous_status",
    async (status) => {
      mintInstall(ctx, 101);
      const order = placeTestOrder(ctx, 101);
      await ctx.webhooks.tick();
      setOrderStatus(ctx, order.id, status);
      await ctx.webhooks.tick();
      expect(events()).toEqual(["order.created", `order.${status}`]);
      const data = envelopes()[1]!.data as { previous_status: string; order: { status: string } };
      expect(data.previous_status).toBe("pending");
      expect(data.order.status).toBe(status);
    },
  );

  it("sends each status event at most once per order, with the status seen just before", async () => {
    mintInstall(ctx, 101);
    const order = placeTestOrder(ctx, 101);
    await ctx.webhooks.tick();
    for (const status of ["confirmed", "cancelled", "confirmed", "shipped"] as const) {
      setOrderStatus(ctx, order.id, status);
      await ctx.webhooks.tick();
    }
    expect(events()).toEqual(["order.created", "order.confirmed", "order.cancelled", "order.shipped"]);
    const previous = envelopes().map((envelope) => envelope.data.previous_status);
    expect(previous).toEqual([undefined, "pending", "confirmed", "confirmed"]);
  });

  it("an order first seen past pending is still just order.created, with its current status", async () => {
    mintInstall(ctx, 101);
    const order = placeTestOrder(ctx, 101);
    setOrderStatus(ctx, order.id, "confirmed");
    await ctx.webhooks.tick();
    await ctx.webhooks.tick();
    expect(events()).toEqual(["order.created"]);
    expect((envelopes()[0]!.data.order as { status: string }).status).toBe("confirmed");
  });

  it("sends no order events to an install without orders:read, but still app.uninstalled", async () => {
    mintInstall(ctx, 101, ["products:read"]);
    placeTestOrder(ctx, 101);
    await ctx.webhooks.tick();
    expect(receiver.requests).toHaveLength(0);
    uninstallApp(ctx, 101);
    await ctx.webhooks.tick();
    expect(events()).toEqual(["app.uninstalled"]);
  });
});

describe("dispatcher", () => {
  it("signs each delivery with the app's secret and sends the documented headers", async () => {
    mintInstall(ctx, 101);
    placeTestOrder(ctx, 101);
    await ctx.webhooks.tick();
    const request = receiver.requests[0]!;
    const delivery = ctx.state.deliveries[0]!;
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/api/webhooks");
    expect(header(request, "content-type")).toBe("application/json");
    expect(header(request, "user-agent")).toBe("Svc-Webhooks/1.0");
    expect(header(request, "x-svc-event")).toBe("order.created");
    expect(header(request, "x-svc-delivery")).toBe(delivery.id);
    expect(header(request, "x-svc-token")).toBeUndefined();
    const timestamp = Number(header(request, "x-svc-timestamp"));
    expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(300);
    expect(header(request, "x-svc-signature")).toMatch(new RegExp(`^t=${timestamp},v1=[0-9a-f]{64}$`));
    expect(verifySignature(DEV_APP.webhookSecret, header(request, "x-svc-signature")!, request.body)).toBe(true);
    expect(delivery.state).toBe("succeeded");
    expect(delivery.attempts).toHaveLength(1);
    expect(delivery.attempts[0]).toMatchObject({ status: 200, error: null, responseSnippet: "ok" });
  });

  it("retries after the minimum waits, with the same event and delivery ids, and is dead after 5 attempts", async () => {
    receiver.answer = () => ({ status: 500, body: "boom" });
    mintInstall(ctx, 101);
    placeTestOrder(ctx, 101);
    await ctx.webhooks.tick();
    expect(receiver.requests).toHaveLength(1);
    for (const [index, wait] of [60, 300, 1800, 7200].entries()) {
      ctx.clock.advance(wait - 1);
      await ctx.webhooks.tick();
      expect(receiver.requests).toHaveLength(index + 1);
      ctx.clock.advance(2);
      await ctx.webhooks.tick();
      expect(receiver.requests).toHaveLength(index + 2);
    }
    const delivery = ctx.state.deliveries[0]!;
    expect(delivery.state).toBe("dead");
    expect(delivery.attempts.map((attempt) => attempt.status)).toEqual([500, 500, 500, 500, 500]);
    expect(delivery.attempts[0]).toMatchObject({ error: "answered HTTP 500", responseSnippet: "boom" });
    ctx.clock.advance(86_400);
    await ctx.webhooks.tick();
    expect(receiver.requests).toHaveLength(5);
    expect(new Set(receiver.requests.map((request) => header(request, "x-svc-delivery"))).size).toBe(1);
    expect(new Set(envelopes().map((envelope) => envelope.id)).size).toBe(1);
    expect(new Set(receiver.requests.map((request) => request.body.toString())).size).toBe(1);
  });

  it("does not follow redirects: a 3xx is a failed attempt", async () => {
    receiver.answer = (request) =>
      request.path === "/api/webhooks" ? { status: 302, headers: { location: "/elsewhere" } } : { status: 200 };
    mintInstall(ctx, 101);
    placeTestOrder(ctx, 101);
    await ctx.webhooks.tick();
    expect(receiver.requests.map((request) => request.path)).toEqual(["/api/webhooks"]);
    expect(ctx.state.deliveries[0]).toMatchObject({ state: "pending" });
    expect(ctx.state.deliveries[0]!.attempts[0]).toMatchObject({ status: 302, error: "redirect not followed" });
  });

  it("counts an answer later than the timeout as a failure", async () => {
    receiver.answer = () => ({ status: 200, delayMs: 1000 });
    const result = await postWebhook(fetch, `${receiver.origin}/slow`, {}, "{}", 100, new AbortController().signal);
    expect(result).toMatchObject({ ok: false, status: null, error: "no answer within 0.1 s" });
  });

  it("a connection error is a failed attempt", async () => {
    const closed = await startReceiver();
    await closed.close();
    app().webhook.url = `${closed.origin}/api/webhooks`;
    mintInstall(ctx, 101);
    placeTestOrder(ctx, 101);
    await ctx.webhooks.tick();
    expect(ctx.state.deliveries[0]!.attempts[0]).toMatchObject({ status: null, error: "connection refused" });
    expect(app().webhook.consecutiveFailures).toBe(1);
  });

  it("disables the endpoint after 10 consecutive failures and kills its pending deliveries", async () => {
    receiver.answer = () => ({ status: 503 });
    mintInstall(ctx, 101);
    for (let index = 0; index < 9; index += 1) placeTestOrder(ctx, 101);
    await ctx.webhooks.tick();
    expect(app().webhook).toMatchObject({ consecutiveFailures: 9, disabled: false });
    expect(ctx.state.deliveries.every((delivery) => delivery.state === "pending")).toBe(true);
    placeTestOrder(ctx, 101);
    await ctx.webhooks.tick();
    expect(receiver.requests).toHaveLength(10);
    expect(app().webhook).toMatchObject({ consecutiveFailures: 10, disabled: true });
    expect(ctx.state.deliveries.map((delivery) => delivery.state)).toEqual(Array(10).fill("dead"));

    // New events while disabled are not sent either.
    placeTestOrder(ctx, 101);
    ctx.clock.advance(3600);
    await ctx.webhooks.tick();
    expect(receiver.requests).toHaveLength(10);
  });

  it("a success resets the consecutive failure count", async () => {
    let fail = true;
    receiver.answer = () => ({ status: fail ? 500 : 200 });
    mintInstall(ctx, 101);
    for (let index = 0; index < 9; index += 1) placeTestOrder(ctx, 101);
    await ctx.webhooks.tick();
    fail = false;
    placeTestOrder(ctx, 101);
    await ctx.webhooks.tick();
    expect(app().webhook.consecutiveFailures).toBe(0);
    fail = true;
    placeTestOrder(ctx, 101);
    await ctx.webhooks.tick();
    expect(app().webhook).toMatchObject({ consecutiveFailures: 1, disabled: false });
  });

  it("rotating the secret takes effect from the next attempt, with no overlap", async () => {
    receiver.answer = () => ({ status: 500 });
    mintInstall(ctx, 101);
    placeTestOrder(ctx, 101);
    await ctx.webhooks.tick();
    const fresh = rotateSigningSecret(ctx);
    expect(fresh).not.toBe(DEV_APP.webhookSecret);
    ctx.clock.advance(61);
    await ctx.webhooks.tick();
    const [first, second] = receiver.requests;
    expect(verifySignature(DEV_APP.webhookSecret, header(first!, "x-svc-signature")!, first!.body)).toBe(true);
    expect(verifySignature(fresh, header(second!, "x-svc-signature")!, second!.body)).toBe(true);
    expect(verifySignature(DEV_APP.webhookSecret, header(second!, "x-svc-signature")!, second!.body)).toBe(false);
  });

  it("drops events to an unverified URL without sending them", async () => {
    app().webhook.verified = false;
    mintInstall(ctx, 101);
    placeTestOrder(ctx, 101);
    await ctx.webhooks.tick();
    expect(receiver.requests).toHaveLength(0);
    expect(ctx.state.deliveries[0]).toMatchObject({ state: "dropped", droppedReason: "webhook URL not verified" });
  });

  it.each<[string, (ctx: EmulatorContext) => void, RegExp]>([
    ["the app is suspended", (c) => setAppStatus(c, "suspended"), /suspended/],
    ["the store plan falls below the app's minimum", (c) => setStorePlan(c, 101, "free"), /plan/],
    ["the store's paid plan expired", (c) => setStorePlan(c, 101, "pro", "2000-01-01T00:00:00.000Z"), /plan/],
    ["a test-mode app runs on a store that is not its developer's", (c) => setAppStatus(c, "draft"), /test-mode/],
  ])("drops pending deliveries when %s, but still sends app.uninstalled", async (_case, change, reason) => {
    mintInstall(ctx, 101);
    placeTestOrder(ctx, 101);
    change(ctx);
    await ctx.webhooks.tick();
    expect(receiver.requests).toHaveLength(0);
    expect(ctx.state.deliveries[0]!.state).toBe("dropped");
    expect(ctx.state.deliveries[0]!.droppedReason).toMatch(reason);
    uninstallApp(ctx, 101);
    await ctx.webhooks.tick();
    expect(events()).toEqual(["app.uninstalled"]);
  });

  it("a test-mode app still gets events from its developer's own store", async () => {
    mintInstall(ctx, 301);
    setAppStatus(ctx, "in_review");
    placeTestOrder(ctx, 301);
    await ctx.webhooks.tick();
    expect(events()).toEqual(["order.created"]);
  });
});

describe("app.uninstalled", () => {
  it("drops the install's pending deliveries and sends the documented payload", async () => {
    receiver.answer = () => ({ status: 500 });
    const { installId } = mintInstall(ctx, 101);
    placeTestOrder(ctx, 101);
    await ctx.webhooks.tick();
    receiver.answer = () => ({ status: 200 });
    uninstallApp(ctx, 101);
    ctx.clock.advance(120);
    await ctx.webhooks.tick();
    expect(events()).toEqual(["order.created", "app.uninstalled"]);
    expect(ctx.state.deliveries[0]).toMatchObject({ state: "dropped", droppedReason: "app uninstalled" });
    const notice = envelopes()[1]!;
    expect(notice.store_id).toBe(101);
    expect(notice.data).toEqual({
      install_id: installId,
      client_id: DEV_APP.clientId,
      store_id: 101,
      uninstalled_at: ctx.state.installs[0]!.uninstalledAt,
    });
    expect(header(receiver.requests[1]!, "x-svc-event")).toBe("app.uninstalled");
  });

  it("is dropped if the app is installed again on that store before delivery", async () => {
    mintInstall(ctx, 101);
    uninstallApp(ctx, 101);
    mintInstall(ctx, 101);
    await ctx.webhooks.tick();
    expect(receiver.requests).toHaveLength(0);
    const notice = ctx.state.deliveries.find((delivery) => delivery.event === "app.uninstalled");
    expect(notice).toMatchObject({ state: "dropped", droppedReason: "app installed again on this store before delivery" });
  });

  it("keeps retrying for one day after uninstall, then stops", async () => {
    receiver.answer = () => ({ status: 500 });
    mintInstall(ctx, 101);
    uninstallApp(ctx, 101);
    await ctx.webhooks.tick();
    ctx.clock.advance(61);
    await ctx.webhooks.tick();
    expect(receiver.requests).toHaveLength(2);
    ctx.clock.advance(86_400);
    await ctx.webhooks.tick();
    expect(receiver.requests).toHaveLength(2);
    expect(ctx.state.deliveries.at(-1)).toMatchObject({ state: "dropped", droppedReason: "endpoint closed one day after uninstall" });
  });
});

describe("verify", () => {
  it("sends one signed webhook.verify for store 0 without a delivery id, and a 2xx verifies the URL", async () => {
    app().webhook.verified = false;
    const result = await ctx.webhooks.verify();
    expect(result).toEqual({ ok: true, status: 200, error: null });
    expect(app().webhook.verified).toBe(true);
    const request = receiver.requests[0]!;
    expect(header(request, "x-svc-event")).toBe("webhook.verify");
    expect(header(request, "x-svc-delivery")).toBeUndefined();
    expect(envelopes()[0]).toMatchObject({ event: "webhook.verify", store_id: 0 });
    expect(verifySignature(DEV_APP.webhookSecret, header(request, "x-svc-signature")!, request.body)).toBe(true);
  });

  it("a non-2xx answer leaves the URL unverified", async () => {
    app().webhook.verified = false;
    receiver.answer = () => ({ status: 404 });
    expect(await ctx.webhooks.verify()).toMatchObject({ ok: false, status: 404 });
    expect(app().webhook.verified).toBe(false);
  });

  it("re-enables a disabled endpoint; dead deliveries are not resent", async () => {
    receiver.answer = () => ({ status: 500 });
    mintInstall(ctx, 101);
    for (let index = 0; index < 10; index += 1) placeTestOrder(ctx, 101);
    await ctx.webhooks.tick();
    expect(app().webhook.disabled).toBe(true);
    receiver.answer = () => ({ status: 204 });
    expect((await ctx.webhooks.verify()).ok).toBe(true);
    expect(app().webhook).toMatchObject({ disabled: false, consecutiveFailures: 0, verified: true });
    receiver.requests.length = 0;
    placeTestOrder(ctx, 101);
    ctx.clock.advance(86_400);
    await ctx.webhooks.tick();
    expect(events()).toEqual(["order.created"]);
    expect(ctx.state.deliveries.filter((delivery) => delivery.state === "dead")).toHaveLength(10);
  });
});

describe("fault injection", () => {
  it("duplicate: the receiver gets the same delivery twice, counted as one attempt", async () => {
    mintInstall(ctx, 101);
    placeTestOrder(ctx, 101);
    addFault(ctx, "duplicate", 1);
    await ctx.webhooks.tick();
    placeTestOrder(ctx, 101);
    await ctx.webhooks.tick();
    expect(receiver.requests).toHaveLength(3);
    const [first, second, third] = receiver.requests;
    expect(header(second!, "x-svc-delivery")).toBe(header(first!, "x-svc-delivery"));
    expect(second!.body.equals(first!.body)).toBe(true);
    expect(header(third!, "x-svc-delivery")).not.toBe(header(first!, "x-svc-delivery"));
    expect(ctx.state.deliveries[0]!.attempts[1]!.error).toMatch(/duplicate/);
  });

  it("bad-signature: the next N deliveries fail verification with the real secret", async () => {
    mintInstall(ctx, 101);
    addFault(ctx, "bad-signature", 2);
    for (let index = 0; index < 3; index += 1) placeTestOrder(ctx, 101);
    await ctx.webhooks.tick();
    const valid = receiver.requests.map((request) =>
      verifySignature(DEV_APP.webhookSecret, header(request, "x-svc-signature")!, request.body),
    );
    expect(valid).toEqual([false, false, true]);
  });

  it("reorder: a later delivery overtakes an earlier one", async () => {
    mintInstall(ctx, 101);
    addFault(ctx, "reorder", 1);
    const first = placeTestOrder(ctx, 101);
    await ctx.webhooks.tick();
    expect(receiver.requests).toHaveLength(0);
    setOrderStatus(ctx, first.id, "confirmed");
    ctx.clock.advance(60);
    await ctx.webhooks.tick();
    expect(events()).toEqual(["order.confirmed", "order.created"]);
  });
});

describe("delivery log size", () => {
  it("keeps every pending delivery and only the newest 1000 finished ones", async () => {
    const template = { eventId: "evt_0", event: "order.created", installId: null, storeId: 101, body: "{}", attempts: [], nextAttemptAt: null, droppedReason: null };
    for (let index = 0; index < 1005; index += 1) {
      ctx.state.deliveries.push({ ...template, id: `dlv_${index}`, state: index === 0 ? "pending" : "succeeded", createdAt: new Date(index).toISOString(), nextAttemptAt: "2999-01-01T00:00:00.000Z" });
    }
    await ctx.webhooks.tick();
    const ids = ctx.state.deliveries.map((delivery) => delivery.id);
    expect(ids).toHaveLength(1001);
    expect(ids[0]).toBe("dlv_0");
    expect(ids[1]).toBe("dlv_5");
    expect(ids.at(-1)).toBe("dlv_1004");
  });
});
