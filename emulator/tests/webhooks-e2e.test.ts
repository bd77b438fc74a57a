/**
 * End to end over HTTP: the emulator started on port 0, a real node:http receiver as the app's webhook URL, and
 * only the control API and the clock to drive it.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { DEV_APP } from "@/lib/dev-app";
import { verifySignature } from "../src/webhooks/signing";
import { startEmulatorForFile, startReceiverForFile } from "./support";

const receiver = startReceiverForFile();
const emulator = startEmulatorForFile(() => ({ appUrl: receiver.origin }));
beforeEach(async () => {
  await control("POST", "/_emulator/reset");
  await control("DELETE", "/_emulator/webhooks/faults");
});

async function control(method: string, path: string, body?: unknown) {
  const response = await fetch(`${emulator.url}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

const tick = () => control("POST", "/_emulator/tick");
const advance = (seconds: number) => control("POST", "/_emulator/clock/advance", { seconds });
const events = () => receiver.requests.map((request) => request.headers["x-svc-event"]);
const install = () => control("POST", "/_emulator/installs", { storeId: 101 });
const placeOrder = async () => (await control("POST", "/_emulator/orders", { storeId: 101 })).json as { id: number };
type Delivery = { id: string; event: string; state: string; attempts: { status: number | null }[] };
const deliveries = async () => (await control("GET", "/_emulator/webhooks/deliveries")).json.deliveries as Delivery[];

describe("webhooks end to end", () => {
  it("a new order arrives signed and verifiable; a status change sends one status event", async () => {
    expect((await install()).status).toBe(200);
    const order = await placeOrder();
    await tick();
    expect(events()).toEqual(["order.created"]);
    const request = receiver.requests[0]!;
    expect(verifySignature(DEV_APP.webhookSecret, request.headers["x-svc-signature"] as string, request.body)).toBe(true);
    expect(JSON.parse(request.body.toString()).data.order.id).toBe(order.id);

    await control("POST", `/_emulator/orders/${order.id}/status`, { status: "shipped" });
    await tick();
    await advance(60);
    await tick();
    expect(events()).toEqual(["order.created", "order.shipped"]);
    expect(JSON.parse(receiver.requests[1]!.body.toString()).data.previous_status).toBe("pending");
  });

  it("a failing receiver gets retries at the minimum waits, then the delivery is dead", async () => {
    receiver.answer = () => ({ status: 500 });
    await install();
    await placeOrder();
    await tick();
    for (const wait of [60, 300, 1800, 7200]) {
      const before = receiver.requests.length;
      await advance(wait - 5);
      await tick();
      expect(receiver.requests).toHaveLength(before);
      await advance(6);
      await tick();
      expect(receiver.requests).toHaveLength(before + 1);
    }
    await advance(86_400);
    await tick();
    expect(receiver.requests).toHaveLength(5);
    const [delivery] = await deliveries();
    expect(delivery).toMatchObject({ event: "order.created", state: "dead" });
    expect(delivery!.attempts).toHaveLength(5);
  });

  it("10 consecutive failures disable the endpoint; verify re-enables it without resending dead deliveries", async () => {
    receiver.answer = () => ({ status: 502 });
    await install();
    for (let index = 0; index < 10; index += 1) await placeOrder();
    await tick();
    const after = await control("GET", "/_emulator/webhooks/deliveries");
    expect(after.json.endpoint).toMatchObject({ disabled: true, consecutiveFailures: 10 });
    expect((after.json.deliveries as Delivery[]).every((delivery) => delivery.state === "dead")).toBe(true);

    receiver.answer = () => ({ status: 200 });
    const verified = await control("POST", "/_emulator/webhooks/verify");
    expect(verified.json).toMatchObject({ ok: true, status: 200, endpoint: { disabled: false, verified: true } });
    receiver.requests.length = 0;
    await advance(86_400);
    await tick();
    expect(receiver.requests).toHaveLength(0);
  });

  it("uninstalling sends app.uninstalled", async () => {
    const { json } = await install();
    await control("POST", "/_emulator/stores/101/uninstall");
    await tick();
    expect(events()).toEqual(["app.uninstalled"]);
    const data = JSON.parse(receiver.requests[0]!.body.toString()).data;
    expect(data).toMatchObject({ install_id: json.installId, client_id: DEV_APP.clientId, store_id: 101 });
  });
});

describe("webhook control API", () => {
  it("POST url refuses a URL that breaks a rule with 422 and the rule", async () => {
    const refused = await control("POST", "/_emulator/webhooks/url", { url: "https://user:pw@hooks.example-shop.com/x" });
    expect(refused).toMatchObject({ status: 422, json: { rule: "no_credentials" } });
    const saved = await control("POST", "/_emulator/webhooks/url", { url: `${receiver.origin}/v2` });
    expect(saved).toMatchObject({ status: 200, json: { endpoint: { url: `${receiver.origin}/v2`, verified: false } } });
  });

  it("POST rotate-secret returns the new secret, which signs the next deliveries", async () => {
    const generated = await control("POST", "/_emulator/webhooks/rotate-secret");
    expect(generated.json.secret).toMatch(/^svcwhsec_[0-9a-f]{48}$/);
    const chosen = await control("POST", "/_emulator/webhooks/rotate-secret", { secret: "my-own-secret-value-123" });
    expect(chosen.json.secret).toBe("my-own-secret-value-123");
    expect((await control("POST", "/_emulator/webhooks/rotate-secret", { secret: "short" })).status).toBe(422);
    await control("POST", "/_emulator/webhooks/verify");
    const request = receiver.requests[0]!;
    expect(verifySignature("my-own-secret-value-123", request.headers["x-svc-signature"] as string, request.body)).toBe(true);
  });

  it("POST faults arms webhook faults; bad input is refused; DELETE clears them", async () => {
    expect((await control("POST", "/_emulator/webhooks/faults", { faults: [{ kind: "explode" }] })).status).toBe(422);
    expect((await control("POST", "/_emulator/webhooks/faults", { faults: [{ kind: "duplicate", times: 0 }] })).status).toBe(422);
    const armed = await control("POST", "/_emulator/webhooks/faults", { faults: [{ kind: "bad-signature", times: 2 }, { kind: "reorder" }] });
    expect(armed.json).toMatchObject({ remaining: { "bad-signature": 2, reorder: 1, duplicate: 0 } });
    const cleared = await control("DELETE", "/_emulator/webhooks/faults");
    expect(cleared.json).toMatchObject({ remaining: { "bad-signature": 0, reorder: 0, duplicate: 0 } });
  });

  it("POST send queues a sample event for an installed store only", async () => {
    expect((await control("POST", "/_emulator/webhooks/send", { event: "order.created", storeId: 101 })).status).toBe(404);
    await install();
    expect((await control("POST", "/_emulator/webhooks/send", { event: "order.exploded", storeId: 101 })).status).toBe(422);
    const queued = await control("POST", "/_emulator/webhooks/send", { event: "order.delivered", storeId: 101 });
    expect(queued.status).toBe(202);
    await tick();
    expect(events()).toEqual(["order.delivered"]);
    const body = JSON.parse(receiver.requests[0]!.body.toString());
    expect(body).toMatchObject({ store_id: 101, data: { order: { status: "delivered", store_id: 101 } } });
  });
});
