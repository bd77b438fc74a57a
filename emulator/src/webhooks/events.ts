/** Event kinds, envelopes and the queueing of deliveries: everything that turns a happening into a pending POST. */
import { randomBytes } from "node:crypto";
import type { EmulatorContext } from "../http/types";
import type { Install, Order, OrderStatus, WebhookDelivery } from "../model";

export const ORDER_STATUS_EVENTS = {
  confirmed: "order.confirmed",
  processing: "order.processing",
  shipped: "order.shipped",
  delivered: "order.delivered",
  cancelled: "order.cancelled",
  returned: "order.returned",
} as const satisfies Partial<Record<OrderStatus, string>>;

export const EVENT_KINDS = [
  { event: "order.created", sentWhen: "A new order is placed." },
  { event: "order.confirmed", sentWhen: "Order status changes to confirmed." },
  { event: "order.processing", sentWhen: "Status changes to processing." },
  { event: "order.shipped", sentWhen: "Status changes to shipped." },
  { event: "order.delivered", sentWhen: "Status changes to delivered." },
  { event: "order.cancelled", sentWhen: "Status changes to cancelled." },
  { event: "order.returned", sentWhen: "Status changes to returned." },
  { event: "app.uninstalled", sentWhen: "The merchant uninstalls the app; sent even if not selected." },
  { event: "webhook.verify", sentWhen: "Verify is pressed in the console." },
] as const;

export type EventName = (typeof EVENT_KINDS)[number]["event"];

export function isEventName(value: string): value is EventName {
  return EVENT_KINDS.some((kind) => kind.event === value);
}

/** `pending` has no event: an order only ever starts there. */
export function statusEventName(status: OrderStatus): string | null {
  return (ORDER_STATUS_EVENTS as Partial<Record<OrderStatus, string>>)[status] ?? null;
}

/** ISO 8601 with an explicit UTC offset, as the envelope's `created_at` is documented. */
export function isoWithOffset(date: Date): string {
  return date.toISOString().replace(/Z$/, "+00:00");
}

export function newEventId(): string {
  return `evt_${randomBytes(12).toString("hex")}`;
}

export function newDeliveryId(): string {
  return `dlv_${randomBytes(12).toString("hex")}`;
}

export type Envelope = { id: string; event: string; created_at: string; store_id: number; data: unknown };

export function buildEnvelope(ctx: EmulatorContext, event: string, storeId: number, data: unknown): Envelope {
  return { id: newEventId(), event, created_at: isoWithOffset(ctx.clock.now()), store_id: storeId, data };
}

export function orderEventData(order: Order, previousStatus?: OrderStatus): Record<string, unknown> {
  const { items, ...rest } = order;
  const data: Record<string, unknown> = { order: rest, items };
  if (previousStatus !== undefined) data.previous_status = previousStatus;
  return data;
}

export function uninstalledEventData(ctx: EmulatorContext, install: Install): Record<string, unknown> {
  const app = ctx.state.apps.find((candidate) => candidate.id === install.appId);
  const at = install.uninstalledAt ? new Date(install.uninstalledAt) : ctx.clock.now();
  return { install_id: install.id, client_id: app?.clientId ?? "", store_id: install.storeId, uninstalled_at: at.toISOString() };
}

/** Adds a pending delivery (no save: callers batch their mutations and save once). */
export function enqueueDelivery(ctx: EmulatorContext, installId: number | null, envelope: Envelope): WebhookDelivery {
  const delivery: WebhookDelivery = {
    id: newDeliveryId(),
    eventId: envelope.id,
    event: envelope.event,
    installId,
    storeId: envelope.store_id,
    body: JSON.stringify(envelope),
    state: "pending",
    attempts: [],
    nextAttemptAt: null,
    createdAt: ctx.clock.now().toISOString(),
    droppedReason: null,
  };
  ctx.state.deliveries.push(delivery);
  return delivery;
}

export function dropDelivery(delivery: WebhookDelivery, reason: string): void {
  delivery.state = "dropped";
  delivery.droppedReason = reason;
  delivery.nextAttemptAt = null;
}
