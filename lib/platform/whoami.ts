import "server-only";
import { z } from "zod";
import { defineResource, intLike, parseAnswer } from "./resource";

export type Whoami = {
  keyId: string;
  storeId: number;
  type: string;
  rateLimitTier: string;
  pilot: boolean;
  scopes: string[];
  app: { appId: number; clientId: string; installId: number } | null;
};

const whoamiSchema = z.looseObject({
  key_id: z.string(),
  store_id: intLike,
  type: z.string(),
  rate_limit_tier: z.string(),
  pilot: z.boolean().optional(),
  scopes: z.array(z.string()),
  app: z.looseObject({ app_id: intLike, client_id: z.string(), install_id: intLike }).nullish(),
});

function toWhoami(raw: z.output<typeof whoamiSchema>): Whoami {
  return {
    keyId: raw.key_id,
    storeId: raw.store_id,
    type: raw.type,
    rateLimitTier: raw.rate_limit_tier,
    pilot: raw.pilot ?? false,
    scopes: raw.scopes,
    app: raw.app ? { appId: raw.app.app_id, clientId: raw.app.client_id, installId: raw.app.install_id } : null,
  };
}

/** `client.whoami()`: what the token is (its store, scopes and install). Needs no scope, so it also checks a token still works. */
export const whoami = defineResource((call) => async (): Promise<Whoami> => {
  const response = await call("GET", "/v1/whoami");
  return toWhoami(parseAnswer(whoamiSchema, response.data, "whoami answer", response.requestId));
});
