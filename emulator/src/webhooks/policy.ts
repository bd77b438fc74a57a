/**
 * Whether a pending delivery may be sent now, per the spec's delivery rules. Decided at send time (not when the
 * event is queued) so that a suspension, plan change or uninstall that happens while a delivery waits for its
 * retry still stops it.
 */
import type { EmulatorContext } from "../http/types";
import type { App, Store, WebhookDelivery } from "../model";
import { isSuspended, isTestMode, planMeetsMinimum } from "../rules";
import { UNINSTALL_GRACE_MS } from "./retry";

/** The app the developer console manages: the first registered one, as the shared actions assume. */
export function consoleApp(ctx: EmulatorContext): App | null {
  return ctx.state.apps[0] ?? null;
}

/** Why this app's order events may not reach this store now, or null when they may. */
export function storeBlockReason(app: App, store: Store, nowMs: number): string | null {
  if (isSuspended(app)) return `app ${app.status}`;
  if (!planMeetsMinimum(store, app, new Date(nowMs))) return "store plan (or expired paid plan) below the app's minimum plan";
  if (isTestMode(app) && store.ownerMerchantId !== app.developerMerchantId) {
    return "test-mode app on a store that is not its developer's";
  }
  return null;
}

export type Gate = { action: "send"; app: App } | { action: "drop"; reason: string } | { action: "dead" };

export function gateDelivery(ctx: EmulatorContext, delivery: WebhookDelivery, nowMs: number): Gate {
  const install = delivery.installId === null ? null : ctx.state.installs.find((candidate) => candidate.id === delivery.installId);
  const app = install ? ctx.state.apps.find((candidate) => candidate.id === install.appId) : consoleApp(ctx);
  if (!app) return { action: "drop", reason: "app no longer registered" };
  if (app.webhook.disabled) return { action: "dead" };
  if (!app.webhook.verified) return { action: "drop", reason: "webhook URL not verified" };
  if (!install) return { action: "send", app };

  if (delivery.event === "app.uninstalled") {
    const since = install.uninstalledAt ? Date.parse(install.uninstalledAt) : nowMs;
    if (nowMs - since > UNINSTALL_GRACE_MS) return { action: "drop", reason: "endpoint closed one day after uninstall" };
    return { action: "send", app };
  }
  if (!install.active) return { action: "drop", reason: "app uninstalled" };
  const store = ctx.state.stores.find((candidate) => candidate.id === install.storeId);
  if (!store) return { action: "drop", reason: "store no longer exists" };
  const blocked = storeBlockReason(app, store, nowMs);
  return blocked ? { action: "drop", reason: blocked } : { action: "send", app };
}
