import "server-only";
import type { Caller } from "./caller";
import { parseAnswer } from "./parse";
import { whoamiSchema } from "./schemas";
import type { Whoami } from "./types";

/** What the token is: its store, scopes and install. Needs no scope, so it also checks a token still works. */
export function whoamiOperation(call: Caller) {
  return async (): Promise<Whoami> => {
    const response = await call("GET", "/v1/whoami");
    const raw = parseAnswer(whoamiSchema, response.data, "whoami answer", response.requestId);
    return {
      keyId: raw.key_id,
      storeId: raw.store_id,
      type: raw.type,
      rateLimitTier: raw.rate_limit_tier,
      pilot: raw.pilot ?? false,
      scopes: raw.scopes,
      app: raw.app ? { appId: raw.app.app_id, clientId: raw.app.client_id, installId: raw.app.install_id } : null,
    };
  };
}
