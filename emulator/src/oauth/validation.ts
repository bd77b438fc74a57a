import type { App } from "../model";

/** Scopes an app can never be granted, whatever it registers (ai:generate spends the merchant's AI credits). */
export const SCOPES_CLOSED_TO_APPS = ["ai:generate"];

export const SCOPE_DESCRIPTIONS: Record<string, string> = {
  "products:read": "See products and categories",
  "products:write": "Create, change and delete products and categories",
  "orders:read": "See orders and receive order webhooks",
  "orders:write": "Change orders",
  "customers:read": "See customers",
  "analytics:read": "See store analytics",
  "whatsapp:read": "See order messages",
  "whatsapp:send": "Send order messages paid from the messaging wallet",
};

export const CLIENT_ID_SHAPE = /^svcapp_[0-9a-f]{20}$/;
export const CODE_CHALLENGE_SHAPE = /^[A-Za-z0-9_-]{43}$/;
export const CODE_VERIFIER_SHAPE = /^[A-Za-z0-9._~-]{43,128}$/;

export function validState(state: string | null): state is string {
  return state !== null && state.length >= 1 && state.length <= 1024;
}

/** The scopes requested: absent or empty means every scope registered on the app; null when one is not allowed. */
export function requestedScopes(app: App, scope: string | null): string[] | null {
  if (scope !== null && scope.length > 512) return null;
  const names = (scope ?? "").split(" ").filter(Boolean);
  if (names.length === 0) return [...app.scopes];
  for (const name of names) {
    if (!app.scopes.includes(name) || SCOPES_CLOSED_TO_APPS.includes(name)) return null;
  }
  return [...new Set(names)];
}

/** Appends parameters to a registered redirect URI, with `&` when it already has a query string. */
export function redirectWith(redirectUri: string, params: Record<string, string>): string {
  const query = new URLSearchParams(params).toString();
  return `${redirectUri}${redirectUri.includes("?") ? "&" : "?"}${query}`;
}
