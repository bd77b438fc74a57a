/**
 * `npm run webhooks -- <event> [flags]`: makes the app receive a webhook, so every case the receiver handles can be
 * seen by hand.
 *
 * Order events, while the emulator runs (`npm run dev`), happen on the platform, like `stripe trigger`: the tool
 * creates the order (or changes its status) through the emulator's control API and the emulator's own checker and
 * dispatcher deliver the event, so the app and the platform hold the same order. `--set field=value` sets order
 * fields on the way (repeatable). The fault cases, app.uninstalled and webhook.verify are signed samples sent
 * straight to ${APP_URL}/api/webhooks with SVC_WEBHOOK_SECRET, as is everything when no emulator answers (or with
 * --direct): the platform then knows nothing of those orders.
 *
 *   npm run webhooks -- order.created                  a new order on store 101, delivered by the emulator
 *   npm run webhooks -- order.created --set customer_name="Karima B." --set status=confirmed
 *   npm run webhooks -- order.shipped                  a new order, then shipped: order.created, order.shipped
 *   npm run webhooks -- order.shipped --order 42       emulator order 42 moves to shipped
 *   npm run webhooks -- app.uninstalled --store 102    the merchant uninstalled the app
 *   npm run webhooks -- webhook.verify                 the console's verify button
 *   npm run webhooks -- order.created --duplicate      the same delivery twice: applied, then acknowledged as duplicate
 *   npm run webhooks -- order.created --stale          a timestamp 10 minutes old: 401
 *   npm run webhooks -- order.created --bad-signature  signed with another secret: 401
 *   npm run webhooks -- order.shipped --out-of-order   shipped, then an older confirmed: the order stays shipped
 *   npm run webhooks -- all                            every case above in a row
 *
 * Other flags: --store <id> (default 101), --order <id>, --url <webhook url> (direct sends), --direct. Order
 * events reach only a store the app is installed on: install it first (npm run dev).
 */
import { parseArgs } from "node:util";
import { env } from "../lib/env";
import { webhookUrlOf } from "../lib/webhook-url/app-urls";
import { newEventId, sampleEnvelope, signDelivery, type SignedDelivery } from "../lib/webhooks/samples";
import { EmulatorTrigger, describeDelivery, parseOverrides } from "./support/emulator-trigger";

const ORDER_EVENTS = ["order.created", "order.confirmed", "order.processing", "order.shipped", "order.delivered", "order.cancelled", "order.returned"];

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    store: { type: "string", default: "101" },
    order: { type: "string" },
    url: { type: "string" },
    duplicate: { type: "boolean", default: false },
    stale: { type: "boolean", default: false },
    "bad-signature": { type: "boolean", default: false },
    "out-of-order": { type: "boolean", default: false },
    set: { type: "string", multiple: true, default: [] },
    direct: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
});

type Sender = (label: string, delivery: SignedDelivery, expect: string) => Promise<void>;

function makeSender(url: string): Sender {
  return async (label, delivery, expect) => {
    let line: string;
    try {
      const response = await fetch(url, { method: "POST", headers: delivery.headers, body: new Uint8Array(delivery.body) });
      const text = (await response.text()).slice(0, 300);
      line = `${response.status} ${text}`;
    } catch (error) {
      line = `no answer (${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)})`;
    }
    console.log(`→ ${label}\n    answer:   ${line}\n    expected: ${expect}`);
  };
}

/** An order event made to happen on the emulator, then reported from its delivery log. */
async function triggerOnEmulator(trigger: EmulatorTrigger, event: string, storeId: number): Promise<number> {
  const overrides = parseOverrides(values.set ?? []);
  const status = event === "order.created" ? null : event.slice("order.".length);
  if (status && "status" in overrides) throw new Error(`--set status does not go with ${event}: the event names the status`);
  if (values.order && (event === "order.created" || Object.keys(overrides).length)) {
    throw new Error("--order picks an existing emulator order for a status event; order.created and --set make a new one");
  }
  const why = await trigger.whyNoEvents(storeId);
  if (why) {
    console.error(`✗ ${why}`);
    return 1;
  }
  console.log(`Triggering ${event} on the emulator at ${trigger.origin} (store ${storeId})\n`);
  let orderId: number;
  if (values.order) {
    orderId = Number(values.order);
  } else {
    const order = await trigger.createOrder(storeId, overrides);
    orderId = order.id;
    console.log(`→ order ${orderId} placed on the platform (${order.status})`);
    await trigger.deliverNow();
  }
  if (status) {
    const order = await trigger.setStatus(orderId, status);
    if (order.store_id !== storeId) console.log(`  (order ${orderId} belongs to store ${order.store_id})`);
    console.log(`→ order ${orderId} moved to ${status} on the platform`);
    await trigger.deliverNow();
  }
  const deliveries = await trigger.deliveriesFor(event, orderId);
  if (deliveries.length === 0) {
    console.log(`  the emulator sent no ${event} for order ${orderId} (each status event goes out at most once per order)`);
    return 1;
  }
  for (const delivery of deliveries) console.log(`  ${describeDelivery(delivery)}`);
  return deliveries.some((delivery) => delivery.state === "succeeded") ? 0 : 1;
}

function randomOrderId(): number {
  return 900_000_000 + Math.floor(Math.random() * 99_999_999);
}

async function main(): Promise<number> {
  const event = positionals[0];
  if (values.help || !event) {
    console.log(
      "Usage: npm run webhooks -- <event|all> [--store <id>] [--order <id>] [--set field=value ...] [--duplicate] [--stale] [--bad-signature] [--out-of-order] [--direct] [--url <url>]",
    );
    return event ? 0 : 2;
  }
  const url = values.url ?? webhookUrlOf(env.APP_URL);
  const storeId = Number(values.store);
  const faultCase = values.duplicate || values.stale || values["bad-signature"] || values["out-of-order"] || event === "all";
  if (ORDER_EVENTS.includes(event) && !faultCase && !values.direct && !values.url) {
    const trigger = new EmulatorTrigger(`http://localhost:${env.EMULATOR_PORT}`);
    if (await trigger.isRunning()) return triggerOnEmulator(trigger, event, storeId);
    console.log(`No emulator answers on port ${env.EMULATOR_PORT}: sending a signed sample directly; the platform will not know this order.\n`);
  }
  if (values.set?.length) throw new Error("--set changes an order on the emulator: start it (npm run dev) and leave out --direct, --url and the fault flags");
  const secret = env.SVC_WEBHOOK_SECRET;
  const send = makeSender(url);
  const now = () => Math.floor(Date.now() / 1000);
  const all = event === "all";
  const name = all ? "order.created" : event;
  const orderId = values.order ? Number(values.order) : randomOrderId();
  console.log(`Sending to ${url} (store ${storeId})\n`);

  const envelope = sampleEnvelope(name, { storeId, orderId, previousStatus: "confirmed" });
  const delivery = signDelivery(envelope, secret);
  await send(`${name} ${String(envelope.id)}`, delivery, "200, applied");

  if (values.duplicate || all) {
    await send(`the same delivery again (${String(envelope.id)})`, delivery, "200 with duplicate: true, nothing changes");
  }
  if (values.stale || all) {
    const stale = signDelivery(sampleEnvelope(name, { storeId, orderId }), secret, { timestamp: now() - 600 });
    await send(`${name} signed 10 minutes ago`, stale, "401: outside the 5-minute tolerance, nothing stored");
  }
  if (values["bad-signature"] || all) {
    const forged = signDelivery(sampleEnvelope(name, { storeId, orderId }), `${secret}-not-the-secret`);
    await send(`${name} signed with another secret`, forged, "401, nothing stored");
  }
  if (values["out-of-order"] || all) {
    const pairOrder = values.order ? orderId : randomOrderId();
    const createdAt = new Date(Date.now() - 60 * 60 * 1000);
    const newer = sampleEnvelope("order.shipped", {
      storeId,
      orderId: pairOrder,
      createdAt,
      previousStatus: "confirmed",
      updatedAt: new Date(Date.now() - 60_000),
    });
    const older = sampleEnvelope("order.confirmed", {
      id: newEventId(),
      storeId,
      orderId: pairOrder,
      createdAt,
      previousStatus: "pending",
      updatedAt: new Date(Date.now() - 10 * 60_000),
    });
    await send(`order.shipped for order ${pairOrder} (updated 1 minute ago)`, signDelivery(newer, secret), "200, order_inserted");
    await send(
      `order.confirmed for order ${pairOrder} (updated 10 minutes ago), arriving late`,
      signDelivery(older, secret),
      "200, order_stale: the order stays shipped; confirmed joins its history",
    );
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`✗ ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
