/** The app.uninstalled notice and its special rules (spec: Events, rule 6; install lifecycle). */
import type { EmulatorContext } from "../http/types";
import type { Install } from "../model";
import { buildEnvelope, dropDelivery, enqueueDelivery, uninstalledEventData } from "./events";

/**
 * On uninstall: the install's pending deliveries are dropped, and one `app.uninstalled` is queued. It goes out
 * only if the endpoint is verified and active; otherwise it is recorded as dropped so the log says why.
 */
export function queueUninstalledNotice(ctx: EmulatorContext, install: Install): void {
  for (const delivery of ctx.state.deliveries) {
    if (delivery.installId === install.id && delivery.state === "pending") dropDelivery(delivery, "app uninstalled");
  }
  const app = ctx.state.apps.find((candidate) => candidate.id === install.appId);
  const envelope = buildEnvelope(ctx, "app.uninstalled", install.storeId, uninstalledEventData(ctx, install));
  const notice = enqueueDelivery(ctx, install.id, envelope);
  if (!app) dropDelivery(notice, "app no longer registered");
  else if (!app.webhook.verified) dropDelivery(notice, "webhook URL not verified");
  else if (app.webhook.disabled) dropDelivery(notice, "endpoint disabled");
  ctx.save();
}

/** Installed again on that store before the notice went out: the pending notice is dropped. */
export function dropPendingUninstallNotices(ctx: EmulatorContext, install: Install): void {
  let changed = false;
  for (const delivery of ctx.state.deliveries) {
    if (delivery.event !== "app.uninstalled" || delivery.state !== "pending" || delivery.storeId !== install.storeId) continue;
    const owner = ctx.state.installs.find((candidate) => candidate.id === delivery.installId);
    if (owner && owner.appId !== install.appId) continue;
    dropDelivery(delivery, "app installed again on this store before delivery");
    changed = true;
  }
  if (changed) ctx.save();
}
