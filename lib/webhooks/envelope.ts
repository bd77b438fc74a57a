import { z } from "zod";
import { isPlatformError, parsePlatformOrder, type PlatformOrder } from "@/lib/platform";

/**
 * The webhook envelope `{ id, event, created_at, store_id, data }` and the data of each event the app acts on.
 * A signed body that fails here is answered 400: the platform will retry it, but its content cannot change,
 * so the failure is logged for a human rather than silently acknowledged.
 */

/** Status events and the status each one announces. */
export const ORDER_STATUS_EVENTS = {
  "order.confirmed": "confirmed",
  "order.processing": "processing",
  "order.shipped": "shipped",
  "order.delivered": "delivered",
  "order.cancelled": "cancelled",
  "order.returned": "returned",
} as const;

export type OrderStatusEventName = keyof typeof ORDER_STATUS_EVENTS;
export type OrderEventName = "order.created" | OrderStatusEventName;

const envelopeSchema = z.object({
  id: z.string().regex(/^evt_[0-9a-fA-F]{1,120}$/, "must be evt_ followed by hex characters"),
  event: z.string().min(1).max(100),
  created_at: z.string().refine((value) => !Number.isNaN(Date.parse(value)), "must be an ISO 8601 date-time"),
  store_id: z.number().int().nonnegative(),
  data: z.record(z.string(), z.unknown()),
});

// The order itself is parsed by the API client's parsePlatformOrder, so webhooks and polling read orders alike.
const orderDataSchema = z.looseObject({
  order: z.record(z.string(), z.unknown()),
  items: z.array(z.unknown()).nullish(),
  previous_status: z.string().min(1).nullish(),
});

const uninstalledDataSchema = z.looseObject({
  install_id: z.number().int().positive(),
  client_id: z.string().nullish(),
  store_id: z.number().int().positive(),
  uninstalled_at: z.string().refine((value) => !Number.isNaN(Date.parse(value)), "must be an ISO 8601 date-time"),
});

type Common = { id: string; event: string; createdAt: Date; storeId: number };

export type WebhookEvent =
  | (Common & {
      kind: "order";
      event: OrderEventName;
      /** The status this event announces (order.created: the order's status when placed). */
      status: string;
      previousStatus: string | null;
      order: PlatformOrder;
    })
  | (Common & { kind: "app.uninstalled"; installId: number; uninstalledAt: Date })
  | (Common & { kind: "webhook.verify" })
  | (Common & { kind: "unknown" });

export type EnvelopeResult = { ok: true; event: WebhookEvent } | { ok: false; problem: string };

function describe(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.join(".") || "(body)"}: ${issue.message}`)
    .join("; ");
}

function isOrderEvent(name: string): name is OrderEventName {
  return name === "order.created" || name in ORDER_STATUS_EVENTS;
}

/** Parses the JSON value of a verified body into a typed event. */
export function parseEnvelope(value: unknown): EnvelopeResult {
  const envelope = envelopeSchema.safeParse(value);
  if (!envelope.success) return { ok: false, problem: describe(envelope.error) };
  const { id, event, store_id: storeId, data } = envelope.data;
  const common: Common = { id, event, storeId, createdAt: new Date(envelope.data.created_at) };

  if (isOrderEvent(event)) {
    const parsed = orderDataSchema.safeParse(data);
    if (!parsed.success) return { ok: false, problem: describe(parsed.error) };
    let order: PlatformOrder;
    try {
      order = parsePlatformOrder({ order: parsed.data.order, items: parsed.data.items ?? null });
    } catch (error) {
      if (isPlatformError(error)) return { ok: false, problem: error.message };
      throw error;
    }
    if (order.storeId !== storeId) return { ok: false, problem: "data.order.store_id differs from store_id" };
    const status = event === "order.created" ? order.status : ORDER_STATUS_EVENTS[event];
    return {
      ok: true,
      event: { ...common, kind: "order", event, status, previousStatus: parsed.data.previous_status ?? null, order },
    };
  }
  if (event === "app.uninstalled") {
    const parsed = uninstalledDataSchema.safeParse(data);
    if (!parsed.success) return { ok: false, problem: describe(parsed.error) };
    if (parsed.data.store_id !== storeId) return { ok: false, problem: "data.store_id differs from store_id" };
    return {
      ok: true,
      event: { ...common, kind: "app.uninstalled", installId: parsed.data.install_id, uninstalledAt: new Date(parsed.data.uninstalled_at) },
    };
  }
  if (event === "webhook.verify") return { ok: true, event: { ...common, kind: "webhook.verify" } };
  return { ok: true, event: { ...common, kind: "unknown" } };
}
