import type { DbOrTx } from "@/db/client";
import { findInstall, markInstallUninstalled } from "@/db/queries/installs";
import { upsertOrder } from "@/db/queries/orders";
import type { Logger } from "@/lib/log";
import type { WebhookEvent } from "./envelope";

/**
 * What each event does to the app's data. Called inside the transaction that recorded the event id, so an
 * effect and its id commit together or not at all.
 */

export type EventEffect =
  | "order_inserted"
  | "order_updated"
  /** The stored copy was as new or newer: nothing rolled back (history may still gain the status). */
  | "order_stale"
  | "install_uninstalled"
  /** An app.uninstalled older than the current install (the merchant installed again), or repeated. */
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

export async function applyEvent(tx: DbOrTx, event: WebhookEvent, context: ApplyContext): Promise<EventEffect> {
  const { logger } = context;
  const hasInstall = async () =>
    context.installState !== undefined ? context.installState !== null : (await findInstall(tx, event.storeId)) !== null;
  switch (event.kind) {
    case "order": {
      if (!(await hasInstall())) {
        logger.warn("webhook for a store without an install; acknowledged, not stored", { storeId: event.storeId });
        return "no_install";
      }
      const result = await upsertOrder(tx, event.storeId, event.order, {
        eventId: event.id,
        previousStatus: event.previousStatus,
        status: event.status,
      });
      return result.outcome === "inserted" ? "order_inserted" : result.outcome === "updated" ? "order_updated" : "order_stale";
    }
    case "app.uninstalled": {
      if (!(await hasInstall())) return "no_install";
      const changed = await markInstallUninstalled(tx, event.storeId, event.uninstalledAt);
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
