import { createHash } from "node:crypto";
import { installOnStore } from "../actions";
import { json } from "../http/respond";
import { oauthRateLimited } from "../http/server";
import type { EmuRequest, EmuResponse, EmulatorContext, Handler } from "../http/types";
import type { App, Install } from "../model";
import { base64url, safeEqual } from "../util";
import { checkOAuthLimit } from "./limits";
import { parseForm } from "./session";
import { CODE_VERIFIER_SHAPE } from "./validation";

export const CODE_VALIDITY_MS = 10 * 60_000;
export const BASIC_REALM = "svc";

function tokenError(status: number, error: string, description: string, headers: Record<string, string> = {}): EmuResponse {
  return json(status, { error, error_description: description }, { "cache-control": "no-store", pragma: "no-cache", ...headers });
}

type Credentials = { clientId: string | null; clientSecret: string | null; viaBasic: boolean };

/** Form fields first; the Basic header only when neither field is present (RFC 6749 2.3.1 encoding). */
function readCredentials(request: EmuRequest, form: URLSearchParams): Credentials {
  if (form.has("client_id") || form.has("client_secret")) {
    return { clientId: form.get("client_id"), clientSecret: form.get("client_secret"), viaBasic: false };
  }
  const header = request.headers.authorization;
  if (typeof header === "string" && /^basic /i.test(header)) {
    const decoded = Buffer.from(header.slice(6).trim(), "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon === -1) return { clientId: null, clientSecret: null, viaBasic: true };
    const decode = (value: string) => {
      try {
        return decodeURIComponent(value.replace(/\+/g, " "));
      } catch {
        return null;
      }
    };
    return { clientId: decode(decoded.slice(0, colon)), clientSecret: decode(decoded.slice(colon + 1)), viaBasic: true };
  }
  return { clientId: null, clientSecret: null, viaBasic: false };
}

function authenticate(ctx: EmulatorContext, credentials: Credentials): App | null {
  if (!credentials.clientId || !credentials.clientSecret) return null;
  const app = ctx.state.apps.find((candidate) => candidate.clientId === credentials.clientId);
  if (!app || !safeEqual(app.clientSecret, credentials.clientSecret)) return null;
  return app;
}

const INVALID_GRANT = "The code is invalid, expired, already used, or does not match this request";

/** POST /oauth/apps/token: client, then grant_type, then the code is claimed (and spent whatever follows). */
export const token: Handler = (request, ctx) => {
  const wait = checkOAuthLimit(ctx, "token", request);
  if (wait !== null) return oauthRateLimited(request.headers.accept, wait);

  const form = parseForm(request.body);
  const credentials = readCredentials(request, form);
  const app = authenticate(ctx, credentials);
  if (!app) {
    const headers: Record<string, string> = credentials.viaBasic ? { "www-authenticate": `Basic realm="${BASIC_REALM}"` } : {};
    return tokenError(401, "invalid_client", "Client authentication failed", headers);
  }
  if (form.get("grant_type") !== "authorization_code") {
    return tokenError(400, "unsupported_grant_type", "Only authorization_code is supported");
  }

  const now = ctx.clock.nowMs();
  const code = ctx.state.authorizationCodes.find((candidate) => candidate.code === form.get("code"));
  if (!code || code.used || code.appId !== app.id || now - Date.parse(code.createdAt) >= CODE_VALIDITY_MS) {
    return tokenError(400, "invalid_grant", INVALID_GRANT);
  }
  // Claimed: from here on the code is spent, even when a later check fails.
  code.used = true;
  ctx.save();
  const verifier = form.get("code_verifier") ?? "";
  if (form.get("redirect_uri") !== code.redirectUri || !CODE_VERIFIER_SHAPE.test(verifier)) {
    return tokenError(400, "invalid_grant", INVALID_GRANT);
  }
  if (base64url(createHash("sha256").update(verifier).digest()) !== code.codeChallenge) {
    return tokenError(400, "invalid_grant", INVALID_GRANT);
  }

  // Each store is checked again: plans, ownership or the app's status may have changed since consent.
  const installed = code.storeIds
    .map((storeId) => installOnStore(ctx, app, storeId, code.merchantId, code.scopes))
    .filter((install): install is Install => install !== null);
  const first = installed[0];
  if (!first) return tokenError(400, "invalid_grant", "No approved store could be installed");

  const stores = installed.map((install) => ({
    store_id: install.storeId,
    store_name: ctx.state.stores.find((store) => store.id === install.storeId)?.name ?? "",
    install_id: install.id,
    access_token: install.accessToken,
  }));
  return json(
    200,
    {
      access_token: first.accessToken,
      token_type: "Bearer",
      scope: code.scopes.join(" "),
      store_id: first.storeId,
      install_id: first.id,
      stores,
    },
    { "cache-control": "no-store", pragma: "no-cache" },
  );
};
