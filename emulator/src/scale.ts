import { ActionError, installOnStore, theApp } from "./actions";
import type { EmulatorContext } from "./http/types";
import type { Store } from "./model";
import { buildOrder, ORDER_STATUSES } from "./order-factory";
import { runtime, type ApiCall } from "./runtime";

/**
 * What a scale test needs from the platform: many stores at once, each with orders and the app installed, and the
 * real platform's per-call latency. The stores and installs are ordinary state (the API answers them like any
 * other); the latency and the call record live in the runtime, so a reset or a restart clears them.
 */

/** A bench asks for 10,000 stores; far beyond that the in-memory state is the limit, not the app. */
export const MAX_MINTED_STORES = 50_000;
export const MAX_ORDERS_PER_STORE = 1_000;
export const MAX_API_LATENCY_MS = 60_000;

export type MintedStore = { storeId: number; storeName: string; installId: number; accessToken: string };

/**
 * `count` new stores of one new merchant, on a plan the app accepts, each with `ordersPerStore` orders spread over
 * the last day and the app installed with every scope it registers. Returns their install tokens, as the app would
 * hold them after each store's exchange. No install webhook is queued beyond what an install always does.
 */
export function mintStores(ctx: EmulatorContext, options: { count: number; ordersPerStore: number }): MintedStore[] {
  const { count, ordersPerStore } = options;
  if (!Number.isInteger(count) || count < 1 || count > MAX_MINTED_STORES) {
    throw new ActionError(400, `count must be an integer from 1 to ${MAX_MINTED_STORES}`);
  }
  if (!Number.isInteger(ordersPerStore) || ordersPerStore < 0 || ordersPerStore > MAX_ORDERS_PER_STORE) {
    throw new ActionError(400, `ordersPerStore must be an integer from 0 to ${MAX_ORDERS_PER_STORE}`);
  }
  const app = theApp(ctx);
  const state = ctx.state;
  const merchantId = Math.max(0, ...state.merchants.map((merchant) => merchant.id)) + 1;
  state.merchants.push({ id: merchantId, name: `Scale merchant ${merchantId}`, email: `scale-${merchantId}@example.com` });
  // The app's minimum plan always fits enterprise; a store of a draft app's developer fits test mode too.
  const ownerMerchantId = app.status === "draft" || app.status === "in_review" ? app.developerMerchantId : merchantId;
  let nextStoreId = Math.max(0, ...state.stores.map((store) => store.id)) + 1;
  const now = ctx.clock.nowMs();
  const minted: MintedStore[] = [];
  for (let index = 0; index < count; index += 1) {
    const store: Store = {
      id: nextStoreId++,
      name: `Scale store ${index + 1}`,
      ownerMerchantId,
      teamMerchantIds: [],
      plan: "enterprise",
      planExpiresAt: null,
      rateLimitPerMinute: null,
      monthlyQuota: null,
      messagingWalletBalance: 0,
    };
    state.stores.push(store);
    for (let order = 0; order < ordersPerStore; order += 1) {
      // Oldest first, the newest a minute ago, so every order is already "placed" when the first poll reads.
      const createdAt = new Date(now - 60_000 - ((ordersPerStore - order) / Math.max(1, ordersPerStore)) * 86_400_000);
      const status = ORDER_STATUSES[order % ORDER_STATUSES.length]!;
      state.orders.push(buildOrder(state, store.id, { random: Math.random, createdAt, status, updatedAt: createdAt }));
    }
    const install = installOnStore(ctx, app, store.id, ownerMerchantId, [...app.scopes]);
    if (!install) throw new ActionError(409, `Store ${store.id} cannot take the app`);
    minted.push({ storeId: store.id, storeName: store.name, installId: install.id, accessToken: install.accessToken });
  }
  ctx.save();
  return minted;
}

export type ApiSettings = { latencyMs: number; recordCalls: boolean };

export function apiSettings(ctx: EmulatorContext): ApiSettings {
  const current = runtime(ctx);
  return { latencyMs: current.apiLatencyMs, recordCalls: current.apiCalls !== null };
}

/** Sets the latency added to every /v1 answer and turns the call record on (emptied) or off. */
export function setApiSettings(ctx: EmulatorContext, settings: Partial<ApiSettings>): ApiSettings {
  const current = runtime(ctx);
  if (settings.latencyMs !== undefined) {
    const { latencyMs } = settings;
    if (!Number.isInteger(latencyMs) || latencyMs < 0 || latencyMs > MAX_API_LATENCY_MS) {
      throw new ActionError(400, `latencyMs must be an integer from 0 to ${MAX_API_LATENCY_MS}`);
    }
    current.apiLatencyMs = latencyMs;
  }
  if (settings.recordCalls !== undefined) current.apiCalls = settings.recordCalls ? [] : null;
  return apiSettings(ctx);
}

/** The calls recorded so far (oldest first); `clear` empties the record and keeps recording. */
export function takeApiCalls(ctx: EmulatorContext, options: { clear?: boolean } = {}): ApiCall[] {
  const current = runtime(ctx);
  const calls = current.apiCalls ?? [];
  if (options.clear && current.apiCalls) current.apiCalls = [];
  return calls;
}

/**
 * Per store, the calls that began before another call of the same store had ended: what two pollers of one store
 * at once look like from the platform's side.
 */
export function overlappingCalls(calls: readonly ApiCall[]): { storeId: number; first: ApiCall; second: ApiCall }[] {
  const byStore = new Map<number, ApiCall[]>();
  for (const call of calls) {
    if (call.storeId === null) continue;
    const list = byStore.get(call.storeId) ?? [];
    list.push(call);
    byStore.set(call.storeId, list);
  }
  const overlaps: { storeId: number; first: ApiCall; second: ApiCall }[] = [];
  for (const [storeId, list] of byStore) {
    list.sort((a, b) => a.startedAt - b.startedAt);
    let latest = list[0];
    for (const call of list.slice(1)) {
      if (latest && call.startedAt < latest.endedAt) overlaps.push({ storeId, first: latest, second: call });
      if (!latest || call.endedAt > latest.endedAt) latest = call;
    }
  }
  return overlaps;
}
