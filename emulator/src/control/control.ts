import {
  advanceClock,
  mintInstall,
  placeTestOrder,
  resetState,
  setAppStatus,
  setOrderStatus,
  setStorePlan,
  setStoreSettings,
  setWithheldScopes,
  storeCustomers,
  storeOrders,
  type StoreSettings,
  theApp,
  uninstallApp,
  type OrderInput,
} from "../actions";
import { clearFaults, parseFaults, queueFaults } from "../faults";
import type { EmulatorContext } from "../http/types";
import type { ApiCall } from "../runtime";
import { apiSettings, mintStores, setApiSettings, takeApiCalls, type ApiSettings, type MintedStore } from "../scale";
import type { AppStatus, Customer, Install, Order, OrderStatus, Plan, Store } from "../model";

export type StateSummary = ReturnType<typeof summarizeState>;

/** What GET /_emulator/state shows: never a token or a secret. */
export function summarizeState(ctx: EmulatorContext) {
  const app = theApp(ctx);
  const state = ctx.state;
  return {
    now: ctx.clock.now().toISOString(),
    timeScale: ctx.clock.timeScale,
    merchants: state.merchants.map((merchant) => ({ id: merchant.id, name: merchant.name, email: merchant.email })),
    stores: state.stores.map((store) => ({
      id: store.id,
      name: store.name,
      ownerMerchantId: store.ownerMerchantId,
      teamMerchantIds: store.teamMerchantIds,
      plan: store.plan,
      planExpiresAt: store.planExpiresAt,
      orders: state.orders.filter((order) => order.store_id === store.id).length,
      categories: state.categories.filter((category) => category.storeId === store.id).length,
    })),
    app: {
      id: app.id,
      name: app.name,
      clientId: app.clientId,
      status: app.status,
      minimumPlan: app.minimumPlan,
      scopes: app.scopes,
      withheldScopes: app.withheldScopes ?? [],
      redirectUris: app.redirectUris,
      developerMerchantId: app.developerMerchantId,
      webhook: {
        url: app.webhook.url,
        verified: app.webhook.verified,
        disabled: app.webhook.disabled,
        consecutiveFailures: app.webhook.consecutiveFailures,
      },
    },
    installs: state.installs.map(publicInstall),
    deliveries: {
      pending: state.deliveries.filter((delivery) => delivery.state === "pending").length,
      total: state.deliveries.length,
    },
  };
}

export function publicInstall(install: Install) {
  return {
    id: install.id,
    appId: install.appId,
    storeId: install.storeId,
    scopes: install.scopes,
    keyId: install.keyId,
    active: install.active,
    installedAt: install.installedAt,
    uninstalledAt: install.uninstalledAt,
  };
}

/** The control API as an in-process object, for tests: the same actions, no HTTP. */
export type EmulatorControl = {
  reset(): void;
  state(): StateSummary;
  mintInstall(storeId: number, scopes?: string[]): { installId: number; accessToken: string; storeId: number };
  uninstall(storeId: number): Install;
  placeOrder(storeId: number, overrides?: OrderInput): Order;
  setOrderStatus(orderId: number, status: OrderStatus): Order;
  setAppStatus(status: AppStatus): void;
  /** Scopes the next consents leave out of the grant (an install with the app's older scope list); [] for none. */
  setWithheldScopes(scopes: string[]): string[];
  setStorePlan(storeId: number, plan: Plan, planExpiresAt?: string | null): Store;
  setStoreSettings(storeId: number, settings: StoreSettings): Store;
  storeOrders(storeId: number): Order[];
  storeCustomers(storeId: number): Customer[];
  advanceClock(seconds: number): Date;
  clock(): { now: string; timeScale: number; offsetMs: number };
  tick(): Promise<void>;
  /** Same shapes as POST /_emulator/faults; returns how many faults are queued. */
  addFaults(faults: unknown[]): number;
  clearFaults(): void;
  /** Many installed stores at once, with their install tokens (emulator/src/scale.ts). */
  mintStores(options: { count: number; ordersPerStore: number }): MintedStore[];
  apiSettings(): ApiSettings;
  /** The latency added to every /v1 answer, and whether each call is recorded (turning it on empties the record). */
  setApiSettings(settings: Partial<ApiSettings>): ApiSettings;
  apiCalls(options?: { clear?: boolean }): ApiCall[];
};

export function createControl(ctx: EmulatorContext): EmulatorControl {
  return {
    reset: () => resetState(ctx),
    state: () => summarizeState(ctx),
    mintInstall: (storeId, scopes) => mintInstall(ctx, storeId, scopes),
    uninstall: (storeId) => uninstallApp(ctx, storeId),
    placeOrder: (storeId, overrides) => placeTestOrder(ctx, storeId, overrides),
    setOrderStatus: (orderId, status) => setOrderStatus(ctx, orderId, status),
    setAppStatus: (status) => void setAppStatus(ctx, status),
    setWithheldScopes: (scopes) => setWithheldScopes(ctx, scopes),
    setStorePlan: (storeId, plan, planExpiresAt) => setStorePlan(ctx, storeId, plan, planExpiresAt),
    setStoreSettings: (storeId, settings) => setStoreSettings(ctx, storeId, settings),
    storeOrders: (storeId) => storeOrders(ctx, storeId),
    storeCustomers: (storeId) => storeCustomers(ctx, storeId),
    advanceClock: (seconds) => advanceClock(ctx, seconds),
    clock: () => ({ now: ctx.clock.now().toISOString(), timeScale: ctx.clock.timeScale, offsetMs: ctx.clock.offsetMs() }),
    tick: () => ctx.webhooks.tick(),
    addFaults: (faults) => queueFaults(ctx, parseFaults(faults)),
    clearFaults: () => clearFaults(ctx),
    mintStores: (options) => mintStores(ctx, options),
    apiSettings: () => apiSettings(ctx),
    setApiSettings: (settings) => setApiSettings(ctx, settings),
    apiCalls: (options) => takeApiCalls(ctx, options),
  };
}
