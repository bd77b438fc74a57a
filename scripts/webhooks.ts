/**
 * `npm run webhooks -- <event> [flags]`: sends a signed sample event to the local app's webhook URL
 * (${APP_URL}/api/webhooks, signed with SVC_WEBHOOK_SECRET) and prints each answer, so every case the receiver
 * handles can be seen by hand.
 *
 *   npm run webhooks -- order.created                  a new order for store 101
 *   npm run webhooks -- order.shipped --order 42       a status event (creates the order if unknown)
 *   npm run webhooks -- app.uninstalled --store 102    the merchant uninstalled the app
 *   npm run webhooks -- webhook.verify                 the console's verify button
 *   npm run webhooks -- order.created --duplicate      the same delivery twice: applied, then acknowledged as duplicate
 *   npm run webhooks -- order.created --stale          a timestamp 10 minutes old: 401
 *   npm run webhooks -- order.created --bad-signature  signed with another secret: 401
 *   npm run webhooks -- order.shipped --out-of-order   shipped, then an older confirmed: the order stays shipped
 *   npm run webhooks -- all                            every case above in a row
 *
 * Other flags: --store <id> (default 101), --order <id>, --url <webhook url>. Order events for a store the app is
 * not installed on are acknowledged and not stored: install the app on the store first (npm run dev).
 */
import { parseArgs } from "node:util";
import { parseEnv } from "../lib/env";
import { newEventId, sampleEnvelope, signDelivery, type SignedDelivery } from "../lib/webhooks/samples";

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

function randomOrderId(): number {
  return 900_000_000 + Math.floor(Math.random() * 99_999_999);
}

async function main(): Promise<number> {
  const event = positionals[0];
  if (values.help || !event) {
    console.log("Usage: npm run webhooks -- <event|all> [--store <id>] [--order <id>] [--duplicate] [--stale] [--bad-signature] [--out-of-order] [--url <url>]");
    return event ? 0 : 2;
  }
  const env = parseEnv(process.env);
  const url = values.url ?? `${env.APP_URL}/api/webhooks`;
  const storeId = Number(values.store);
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
