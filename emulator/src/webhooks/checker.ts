/**
 * The order checker: once per emulated minute it compares every store's orders with what each install has been
 * told, and queues `order.created` on first sighting and `order.<status>` on each status seen for the first time.
 *
 * The ledger entry of an install and order is the sequence of statuses observed (consecutive duplicates
 * collapsed): its last element is the previous status of the next change, and a status already in it is never
 * announced again, so each status event goes out at most once per order even if the order comes back to it.
 */
import type { EmulatorContext } from "../http/types";
import { buildEnvelope, enqueueDelivery, orderEventData, statusEventName } from "./events";

export function runOrderChecker(ctx: EmulatorContext): number {
  const ledger = ctx.state.orderEventLedger;
  let queued = 0;
  let changed = false;
  for (const install of ctx.state.installs) {
    if (!install.active || !install.scopes.includes("orders:read")) continue;
    const installedAtMs = Date.parse(install.installedAt);
    for (const order of ctx.state.orders) {
      if (order.store_id !== install.storeId) continue;
      const key = `${install.id}:${order.id}`;
      const seen = ledger[key];
      if (!seen) {
        ledger[key] = [order.status];
        changed = true;
        // Orders that predate the install are history, not news: the platform announces new orders only.
        if (Date.parse(order.created_at) < installedAtMs) continue;
        enqueueDelivery(ctx, install.id, buildEnvelope(ctx, "order.created", order.store_id, orderEventData(order)));
        queued++;
        continue;
      }
      const previous = seen.at(-1);
      if (previous === order.status || previous === undefined) continue;
      const announcedBefore = seen.includes(order.status);
      seen.push(order.status);
      changed = true;
      const event = statusEventName(order.status);
      if (announcedBefore || !event) continue;
      const data = orderEventData(order, previous as typeof order.status);
      enqueueDelivery(ctx, install.id, buildEnvelope(ctx, event, order.store_id, data));
      queued++;
    }
  }
  if (changed) ctx.save();
  return queued;
}
