import "server-only";
import { platformFetch, type Wire } from "./http";

/**
 * The platform's token endpoint, `{auth_url}/oauth/apps/token`, as the token exchange (lib/oauth/token-client.ts)
 * and the doctor's credentials probe (lib/doctor/platform-checks.ts) reach it: the same form post on the same
 * transport. What its answers mean is read by lib/oauth/token-response.ts.
 */

/** One store entry of a token exchange: the app keeps one token per store. */
export type InstalledStore = {
  storeId: number;
  storeName: string;
  installId: number;
  accessToken: string;
};

export type TokenExchangeResult = {
  scopes: string[];
  stores: InstalledStore[];
};

export function tokenEndpointUrl(authUrl: string): string {
  return `${authUrl.replace(/\/+$/, "")}/oauth/apps/token`;
}

/** POSTs a form to the token endpoint. Throws PlatformError kind "network" when no answer arrives (see platformFetch). */
export function postTokenForm(authUrl: string, form: Record<string, string>, wire: Wire = {}): Promise<Response> {
  return platformFetch(
    tokenEndpointUrl(authUrl),
    {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
      body: new URLSearchParams(form),
    },
    wire,
  );
}
