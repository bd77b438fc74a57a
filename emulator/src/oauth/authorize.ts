import { errorPage, html, redirect } from "../http/respond";
import { oauthRateLimited } from "../http/server";
import type { Handler } from "../http/types";
import type { ConsentRequest } from "../model";
import { isSuspended, isTestMode } from "../rules";
import { randomHex } from "../util";
import { consentPage } from "./consent-page";
import { checkOAuthLimit } from "./limits";
import { signedInMerchant } from "./session";
import { CLIENT_ID_SHAPE, CODE_CHALLENGE_SHAPE, redirectWith, requestedScopes, validState } from "./validation";

/** GET /oauth/apps/authorize: every check in the spec's order, then the consent screen. */
export const authorize: Handler = (request, ctx) => {
  const wait = checkOAuthLimit(ctx, "authorize", request);
  if (wait !== null) return oauthRateLimited(request.headers.accept, wait);

  const query = request.url.searchParams;
  const clientId = query.get("client_id") ?? "";
  const redirectUri = query.get("redirect_uri");
  const app = CLIENT_ID_SHAPE.test(clientId) ? ctx.state.apps.find((candidate) => candidate.clientId === clientId) : undefined;
  // Until client and redirect URI match, never redirect anywhere.
  if (!app) return errorPage(400, "Unknown app", "The client_id is missing, malformed or not registered.");
  if (redirectUri === null || !app.redirectUris.includes(redirectUri)) {
    return errorPage(400, "Invalid redirect URI", "The redirect_uri does not match a URI registered for this app.");
  }

  const merchant = signedInMerchant(request, ctx);
  if (!merchant) return redirect(`/login?next=${encodeURIComponent(request.url.pathname + request.url.search)}`);

  if (isSuspended(app) || (isTestMode(app) && merchant.id !== app.developerMerchantId)) {
    return errorPage(404, "App not found", "This app is not available.");
  }

  const state = query.get("state");
  const stateParam: Record<string, string> = validState(state) ? { state } : {};
  const fail = (error: string, description: string, withState: boolean) =>
    redirect(redirectWith(redirectUri, { error, error_description: description, ...(withState ? stateParam : {}) }));

  if (query.get("response_type") !== "code") {
    return fail("unsupported_response_type", "response_type must be code", true);
  }
  if (!validState(state)) return fail("invalid_request", "state must be 1 to 1024 characters", false);
  if (!CODE_CHALLENGE_SHAPE.test(query.get("code_challenge") ?? "") || query.get("code_challenge_method") !== "S256") {
    return fail("invalid_request", "code_challenge must be an S256 challenge (43 base64url characters)", true);
  }
  const scopes = requestedScopes(app, query.get("scope"));
  if (!scopes) return fail("invalid_scope", "A requested scope is not available to this app", true);

  const consent: ConsentRequest = {
    id: `cr_${randomHex(16)}`,
    appId: app.id,
    merchantId: merchant.id,
    redirectUri,
    scopes,
    state,
    codeChallenge: query.get("code_challenge")!,
    createdAt: ctx.clock.now().toISOString(),
    answered: false,
  };
  ctx.state.consentRequests.push(consent);
  pruneOld(ctx.state.consentRequests, ctx.clock.nowMs());
  ctx.save();
  return html(200, consentPage(ctx, app, merchant, consent, request.url.pathname + request.url.search), {
    "cache-control": "no-store",
  });
};

/** Keep the state file small: consent requests older than a day are useless. */
function pruneOld(requests: ConsentRequest[], now: number): void {
  const cutoff = now - 86_400_000;
  for (let index = requests.length - 1; index >= 0; index -= 1) {
    if (Date.parse(requests[index]!.createdAt) < cutoff) requests.splice(index, 1);
  }
}
