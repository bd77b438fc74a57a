import { PLAN_RANK, type App, type EmulatorState, type Install, type Store } from "./model";

export type Ineligibility = { code: "not_owner" | "app_suspended" | "test_mode" | "plan_below_minimum"; reason: string };

export function isSuspended(app: App): boolean {
  return app.status === "suspended" || app.status === "rejected";
}

/** Draft or first review: only the developer's own stores can run it. */
export function isTestMode(app: App): boolean {
  return app.status === "draft" || app.status === "in_review";
}

/** A paid plan past its expiry date counts as below every minimum plan. */
export function planMeetsMinimum(store: Store, app: App, now: Date): boolean {
  if (store.planExpiresAt && store.plan !== "free" && Date.parse(store.planExpiresAt) <= now.getTime()) return false;
  return PLAN_RANK[store.plan] >= PLAN_RANK[app.minimumPlan];
}

/** Why a store cannot take the app for this merchant (consent and exchange), or null when it can. */
export function storeIneligibility(app: App, store: Store, merchantId: number, now: Date): Ineligibility | null {
  if (store.ownerMerchantId !== merchantId) return { code: "not_owner", reason: "You are not the owner of this store" };
  if (isSuspended(app)) return { code: "app_suspended", reason: "This app is suspended" };
  if (isTestMode(app) && store.ownerMerchantId !== app.developerMerchantId) {
    return { code: "test_mode", reason: "This app is in test mode and can only be installed on its developer's stores" };
  }
  if (!planMeetsMinimum(store, app, now)) {
    return { code: "plan_below_minimum", reason: `The store plan is below the app's minimum plan (${app.minimumPlan})` };
  }
  return null;
}

export type InstallStateCode = "app_uninstalled" | "app_suspended" | "app_not_approved" | "app_plan_required";

/** The 403s an existing install meets, in the spec's order; null when calls may go through. */
export function installStateError(state: EmulatorState, install: Install, now: Date): { code: InstallStateCode; message: string } | null {
  const app = state.apps.find((candidate) => candidate.id === install.appId);
  const store = state.stores.find((candidate) => candidate.id === install.storeId);
  if (!install.active || !app || !store) return { code: "app_uninstalled", message: "The app is no longer installed on this store" };
  if (isSuspended(app)) return { code: "app_suspended", message: "The app is suspended" };
  if (isTestMode(app) && store.ownerMerchantId !== app.developerMerchantId) {
    return { code: "app_not_approved", message: "The app is not approved yet and this store is not its developer's" };
  }
  if (!planMeetsMinimum(store, app, now)) {
    return { code: "app_plan_required", message: `The store plan is below the app's minimum plan (${app.minimumPlan})` };
  }
  return null;
}
