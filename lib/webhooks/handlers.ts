import { rawQuery, transactionQuery, type Db, type DbOrTx } from "@/db/client";
import { findInstall } from "@/db/queries/installs";
import { applyOrderEvent, type EventStatement, type OrderEventInput } from "@/db/queries/order-events";
import { recordUninstall } from "@/lib/installs/record-state";
import type { Logger } from "@/lib/log";
import type { WebhookEvent } from "./envelope";

/**
 * What each event does to the app's data. Order events (nearly all the traffic) are claimed and applied in one
 * statement (applyOrderWebhook); the others are called inside the transaction that recorded the event id
 * (applyEvent). Either way an effect and its id commit together or not at all.
 */

export type EventEffect =
  | "order_inserted"
  | "order_updated"
  /** The stored copy was as new or newer: nothing rolled back (history may still gain the status). */
  | "order_stale"
  | "install_uninstalled"
  /** An app.uninstalled for another install id than the store's, or for an install already uninstalled. */
  | "uninstall_ignored"
  /** No install row for the store (never installed, or purged after retention): nothing but the event id is kept. */
  | "no_install"
  | "verified"
  | "unknown_event";

export type ApplyContext = {
  logger: Logger;
  /** The install's state when the caller already read it (claimEvent does); null means no install row. */
  installState?: string | null;
};

export type OrderWebhookEvent = Extract<WebhookEvent, { kind: "order" }>;

/** What the one-statement claim-and-apply needs of an order event (db/queries/order-events.ts). */
function orderEventInput(event: OrderWebhookEvent, deliveryId: string | null): OrderEventInput {
  return {
    eventId: event.id,
    event: event.event,
    storeId: event.storeId,
    deliveryId,
    order: event.order,
    status: event.status,
    previousStatus: event.previousStatus,
  };
}

/**
 * An order event, claimed and applied in one round trip; duplicate when its id was seen before. A follow-up written
 * as a statement (FollowUp.inStatement) runs in that same statement, only if the event was claimed for an install.
 */
export async function applyOrderWebhook(
  db: Db,
  event: OrderWebhookEvent,
  context: { logger: Logger; deliveryId: string | null; deadlineMs: number; followUp?: EventStatement },
): Promise<{ duplicate: true } | { duplicate: false; effect: EventEffect }> {
  const result = await applyOrderEvent(
    rawQuery(db),
    orderEventInput(event, context.deliveryId),
    { deadlineMs: context.deadlineMs, followUp: context.followUp },
  );
  if (!result.claimed) return { duplicate: true };
  if (!result.installed) {
    context.logger.warn("webhook for a store without an install; acknowledged, not stored", { storeId: event.storeId });
    return { duplicate: false, effect: "no_install" };
  }
  const effect = result.outcome === "inserted" ? "order_inserted" : result.outcome === "updated" ? "order_updated" : "order_stale";
  return { duplicate: false, effect };
}

/**
 * Work an event leads to beyond its effect on the app's rows (lib/jobs/webhook-follow-ups.ts): run with the claim of
 * the event id (in its statement or its transaction), so a job it sends exists exactly once per event.
 */
export type FollowUp = ((tx: DbOrTx, event: WebhookEvent) => Promise<void>) & {
  /**
   * For an order event, the same work as a statement to run inside the event's own (lib/jobs/in-statement.ts), so
   * the event keeps its one round trip; null when it cannot be written so, and the function runs in a transaction.
   */
  inStatement?: (event: OrderWebhookEvent) => Promise<EventStatement | null>;
};

/** applyOrderWebhook inside a transaction that also runs the event's follow-up, for one that is not a statement. */
export async function applyOrderWebhookWithFollowUp(
  db: Db,
  event: OrderWebhookEvent,
  context: { logger: Logger; deliveryId: string | null },
  followUp: FollowUp,
): Promise<{ duplicate: true } | { duplicate: false; effect: EventEffect }> {
  return db.transaction(async (tx) => {
    // The same statement as the fast path, prepared and timed like it, on the transaction's connection: straight to
    // the driver, not through drizzle's query building.
    const result = await applyOrderEvent(transactionQuery(tx), orderEventInput(event, context.deliveryId));
    if (!result.claimed) return { duplicate: true as const };
    if (!result.installed) return { duplicate: false as const, effect: "no_install" as const };
    await followUp(tx, event);
    const effect = result.outcome === "inserted" ? "order_inserted" : result.outcome === "updated" ? "order_updated" : "order_stale";
    return { duplicate: false as const, effect };
  });
}

export async function applyEvent(
  tx: DbOrTx,
  event: Exclude<WebhookEvent, OrderWebhookEvent>,
  context: ApplyContext,
): Promise<EventEffect> {
  const { logger } = context;
  const hasInstall = async () =>
    context.installState !== undefined ? context.installState !== null : (await findInstall(tx, event.storeId)) !== null;
  switch (event.kind) {
    case "app.uninstalled": {
      if (!(await hasInstall())) return "no_install";
      const changed = await recordUninstall(tx, { storeId: event.storeId, installId: event.installId, at: event.uninstalledAt });
      return changed ? "install_uninstalled" : "uninstall_ignored";
    }
    case "webhook.verify":
      return "verified";
    case "unknown":
      // A new event kind must not be failed: the platform would retry it and then disable the endpoint.
      logger.info("webhook event not handled by this app; acknowledged", { event: event.event });
      return "unknown_event";
  }
}
