import { WILAYAS } from "./catalog";
import { createFixtureState } from "./fixtures";
import type { EmulatorContext } from "./http/types";
import { PLAN_RANK, type App, type AppStatus, type Customer, type Install, type Order, type OrderStatus, type Plan } from "./model";
import { ORDER_STATUSES, buildOrder, trackingNumber } from "./order-factory";
import { storeIneligibility } from "./rules";
import { resetRuntime, runtime } from "./runtime";
import { randomHex } from "./util";
import { clearFaults as clearWebhookFaults } from "./webhooks/faults";

/**
 * Domain actions shared by the OAuth endpoints, the control API, the CLI and the merchant dashboard.
 * They throw ActionError (with the HTTP status the control API answers) for bad input.
 */
function resetAnalyticsCache(ctx: EmulatorContext): void {
  runtime(ctx).analyticsCache.clear();
}

export class ActionError extends Error {
  override name = "ActionError";
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export const APP_STATUSES: AppStatus[] = ["draft", "in_review", "approved", "rejected", "suspended"];
const PLANS = Object.keys(PLAN_RANK) as Plan[];

export function theApp(ctx: EmulatorContext): App {
  const app = ctx.state.apps[0];
  if (!app) throw new ActionError(500, "The emulator state holds no app");
  return app;
}

function requireStore(ctx: EmulatorContext, storeId: number) {
  const store = ctx.state.stores.find((candidate) => candidate.id === storeId);
  if (!store) throw new ActionError(404, `No store ${storeId}`);
  return store;
}

export function newAccessToken(): { accessToken: string; keyId: string } {
  return { accessToken: `svcpk_live_${randomHex(24)}`, keyId: `key_${randomHex(8)}` };
}

/**
 * Installs the app on one store as a completed exchange would: the same install id when the store had the app
 * before, scopes replaced, and a new token that revokes the old one at once. Returns null when the store fails the
 * final check.
 */
export function installOnStore(
  ctx: EmulatorContext,
  app: App,
  storeId: number,
  merchantId: number,
  scopes: string[],
): Install | null {
  const store = ctx.state.stores.find((candidate) => candidate.id === storeId);
  if (!store || storeIneligibility(app, store, merchantId, ctx.clock.now())) return null;
  const now = ctx.clock.now().toISOString();
  const { accessToken, keyId } = newAccessToken();
  let install = ctx.state.installs.find((candidate) => candidate.appId === app.id && candidate.storeId === storeId);
  if (install) {
    if (!ctx.state.revokedTokens.includes(install.accessToken)) ctx.state.revokedTokens.push(install.accessToken);
    install.accessToken = accessToken;
    install.keyId = keyId;
    install.scopes = [...scopes];
    if (!install.active) install.installedAt = now;
    install.active = true;
    install.uninstalledAt = null;
  } else {
    install = {
      id: ctx.nextId("install"),
      appId: app.id,
      storeId,
      scopes: [...scopes],
      accessToken,
      keyId,
      active: true,
      installedAt: now,
      uninstalledAt: null,
    };
    ctx.state.installs.push(install);
  }
  ctx.save();
  ctx.webhooks.onInstalled(install);
  return install;
}

/** As if the store's owner consented and the app exchanged the code (for tests and the control API). */
export function mintInstall(
  ctx: EmulatorContext,
  storeId: number,
  scopes?: string[],
): { installId: number; accessToken: string; storeId: number } {
  const app = theApp(ctx);
  const store = requireStore(ctx, storeId);
  const granted = scopes ?? app.scopes;
  const unknown = granted.find((scope) => !app.scopes.includes(scope));
  if (unknown) throw new ActionError(422, `Scope not registered on the app: ${unknown}`);
  const blocked = storeIneligibility(app, store, store.ownerMerchantId, ctx.clock.now());
  if (blocked) throw new ActionError(409, `Store ${storeId} cannot take the app: ${blocked.reason}`);
  const install = installOnStore(ctx, app, storeId, store.ownerMerchantId, granted);
  if (!install) throw new ActionError(409, `Store ${storeId} cannot take the app`);
  return { installId: install.id, accessToken: install.accessToken, storeId };
}

export type OrderInput = Partial<Omit<Order, "id" | "store_id" | "store_seq">>;

/** A new pending order stamped with the clock's now; the order checker turns it into webhooks. */
export function placeTestOrder(ctx: EmulatorContext, storeId: number, input: OrderInput = {}): Order {
  requireStore(ctx, storeId);
  if (input.status !== undefined && !ORDER_STATUSES.includes(input.status)) {
    throw new ActionError(422, `Unknown order status: ${String(input.status)}`);
  }
  if (input.wilaya_id !== undefined && input.wilaya_name === undefined) {
    const wilaya = WILAYAS.find((candidate) => candidate.id === input.wilaya_id);
    if (wilaya) input = { ...input, wilaya_name: wilaya.name };
  }
  const now = ctx.clock.now();
  const random = Math.random;
  const order = buildOrder(ctx.state, storeId, {
    random,
    createdAt: now,
    status: "pending",
    overrides: { ...input, status: input.status ?? "pending", created_at: now.toISOString(), updated_at: now.toISOString() },
  });
  ctx.state.orders.push(order);
  ctx.save();
  return order;
}

export function setOrderStatus(ctx: EmulatorContext, orderId: number, status: OrderStatus): Order {
  if (!ORDER_STATUSES.includes(status)) throw new ActionError(422, `Unknown order status: ${String(status)}`);
  const order = ctx.state.orders.find((candidate) => candidate.id === orderId);
  if (!order) throw new ActionError(404, `No order ${orderId}`);
  order.status = status;
  order.updated_at = ctx.clock.now().toISOString();
  if (status === "shipped") {
    order.tracking_number ??= trackingNumber(Math.random);
    order.delivery_company ??= "Yalidine";
  }
  if (status === "delivered") order.payment_status = "paid";
  ctx.save();
  return order;
}

/** The merchant uninstalls: token revoked, install inactive, pending deliveries dropped, the engine notified. */
export function uninstallApp(ctx: EmulatorContext, storeId: number): Install {
  requireStore(ctx, storeId);
  const app = theApp(ctx);
  const install = ctx.state.installs.find((candidate) => candidate.appId === app.id && candidate.storeId === storeId && candidate.active);
  if (!install) throw new ActionError(404, `The app is not installed on store ${storeId}`);
  if (!ctx.state.revokedTokens.includes(install.accessToken)) ctx.state.revokedTokens.push(install.accessToken);
  install.active = false;
  install.uninstalledAt = ctx.clock.now().toISOString();
  for (const delivery of ctx.state.deliveries) {
    if (delivery.installId === install.id && delivery.state === "pending") {
      delivery.state = "dropped";
      delivery.droppedReason = "app uninstalled";
      delivery.nextAttemptAt = null;
    }
  }
  ctx.save();
  ctx.webhooks.onUninstalled(install);
  return install;
}

export function setAppStatus(ctx: EmulatorContext, status: AppStatus): App {
  if (!APP_STATUSES.includes(status)) throw new ActionError(422, `App status must be one of ${APP_STATUSES.join(", ")}`);
  const app = theApp(ctx);
  app.status = status;
  ctx.save();
  return app;
}

/**
 * Scopes the next consents leave out of the grant (emulator only): an install made now has the older scope list a
 * store installed before a section added its scope would have. An empty list grants what is asked again.
 */
export function setWithheldScopes(ctx: EmulatorContext, scopes: string[]): string[] {
  const app = theApp(ctx);
  const unknown = scopes.find((scope) => !app.scopes.includes(scope));
  if (unknown) throw new ActionError(422, `Scope not registered on the app: ${unknown}`);
  app.withheldScopes = [...new Set(scopes)];
  ctx.save();
  return app.withheldScopes;
}

export function setStorePlan(ctx: EmulatorContext, storeId: number, plan: Plan, planExpiresAt?: string | null) {
  if (!PLANS.includes(plan)) throw new ActionError(422, `Plan must be one of ${PLANS.join(", ")}`);
  if (planExpiresAt !== undefined && planExpiresAt !== null && Number.isNaN(Date.parse(planExpiresAt))) {
    throw new ActionError(422, "planExpiresAt must be an ISO date or null");
  }
  const store = requireStore(ctx, storeId);
  store.plan = plan;
  store.planExpiresAt = planExpiresAt === undefined ? null : planExpiresAt;
  ctx.save();
  return store;
}

export type StoreSettings = { monthlyQuota?: number | null; analyticsRevenueVisible?: boolean };

/** Store settings the platform's merchants and staff control, for trying the app against them (402, revenue). */
export function setStoreSettings(ctx: EmulatorContext, storeId: number, settings: StoreSettings) {
  const quota = settings.monthlyQuota;
  if (quota !== undefined && quota !== null && (!Number.isInteger(quota) || quota < 0)) {
    throw new ActionError(422, "monthlyQuota must be a non-negative integer or null");
  }
  if (settings.analyticsRevenueVisible !== undefined && typeof settings.analyticsRevenueVisible !== "boolean") {
    throw new ActionError(422, "analyticsRevenueVisible must be true or false");
  }
  const store = requireStore(ctx, storeId);
  if (quota !== undefined) store.monthlyQuota = quota;
  if (settings.analyticsRevenueVisible !== undefined) {
    store.analyticsRevenueVisible = settings.analyticsRevenueVisible;
    // A cached report was computed under the old setting.
    resetAnalyticsCache(ctx);
  }
  ctx.save();
  return store;
}

/** A store's orders exactly as the emulator holds them, oldest first (tests compute expected figures from them). */
export function storeOrders(ctx: EmulatorContext, storeId: number): Order[] {
  requireStore(ctx, storeId);
  return ctx.state.orders.filter((order) => order.store_id === storeId);
}

export function storeCustomers(ctx: EmulatorContext, storeId: number): Customer[] {
  requireStore(ctx, storeId);
  return ctx.state.customers.filter((customer) => customer.storeId === storeId);
}

export function advanceClock(ctx: EmulatorContext, seconds: number): Date {
  if (!Number.isFinite(seconds) || seconds < 0) throw new ActionError(422, "seconds must be a non-negative number");
  ctx.clock.advance(seconds);
  ctx.save();
  return ctx.clock.now();
}

/** Back to the built-in fixtures. The clock keeps running forward so nothing seems to happen in the past. */
export function resetState(ctx: EmulatorContext): void {
  const fresh = createFixtureState({ appUrl: ctx.config.appUrl, now: ctx.clock.now() });
  const state = ctx.state as Record<string, unknown>;
  for (const key of Object.keys(state)) delete state[key];
  Object.assign(ctx.state, fresh);
  resetRuntime(ctx);
  // Webhook faults live beside the context, not in the state: a reset must clear them too.
  clearWebhookFaults(ctx);
  ctx.save();
}
