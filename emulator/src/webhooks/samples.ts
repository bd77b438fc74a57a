/** Sample events queued on demand from the console or the control API, to exercise a receiver without waiting. */
import type { EmulatorContext } from "../http/types";
import type { OrderStatus, WebhookDelivery } from "../model";
import { buildEnvelope, enqueueDelivery, EVENT_KINDS, isoWithOffset, orderEventData, type EventName } from "./events";
import { consoleApp } from "./policy";

type SampleEvent = Exclude<EventName, "webhook.verify">;

/** Every documented event but `webhook.verify`, which has a button of its own and no order or install behind it. */
export const SAMPLE_EVENTS: readonly SampleEvent[] = EVENT_KINDS.map((kind) => kind.event).filter(
  (event): event is SampleEvent => event !== "webhook.verify",
);

export type SampleResult = { ok: true; delivery: WebhookDelivery } | { ok: false; status: 404 | 422; message: string };

/**
 * Queues one sample event for the console app's install on a store. Order events carry the store's newest order
 * (shown in the event's status); the order itself and the checker's ledger are left untouched.
 */
export function queueSampleEvent(ctx: EmulatorContext, event: string, storeId: number): SampleResult {
  if (!(SAMPLE_EVENTS as readonly string[]).includes(event)) {
    return { ok: false, status: 422, message: `event must be one of: ${SAMPLE_EVENTS.join(", ")}` };
  }
  const app = consoleApp(ctx);
  const install = app && ctx.state.installs.find((candidate) => candidate.appId === app.id && candidate.storeId === storeId);
  if (!app || !install) return { ok: false, status: 404, message: `the app is not installed on store ${storeId}` };

  let data: Record<string, unknown>;
  if (event === "app.uninstalled") {
    data = { install_id: install.id, client_id: app.clientId, store_id: storeId, uninstalled_at: ctx.clock.now().toISOString() };
  } else {
    const newest = ctx.state.orders.filter((order) => order.store_id === storeId).sort((a, b) => b.id - a.id)[0];
    if (!newest) return { ok: false, status: 404, message: `store ${storeId} has no order to use as a sample` };
    if (event === "order.created") data = orderEventData(newest);
    else {
      const status = event.slice("order.".length) as OrderStatus;
      const previous = newest.status === status ? "pending" : newest.status;
      data = orderEventData({ ...newest, status, updated_at: isoWithOffset(ctx.clock.now()) }, previous);
    }
  }
  const delivery = enqueueDelivery(ctx, install.id, buildEnvelope(ctx, event, storeId, data));
  ctx.save();
  return { ok: true, delivery };
}
