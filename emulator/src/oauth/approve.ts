import { errorPage, redirect } from "../http/respond";
import { oauthRateLimited } from "../http/server";
import type { EmuRequest, EmulatorContext, Handler } from "../http/types";
import type { AuthorizationCode, ConsentRequest } from "../model";
import { storeIneligibility } from "../rules";
import { randomHex } from "../util";
import { MAX_STORES_PER_CONSENT } from "./consent-page";
import { checkOAuthLimit } from "./limits";
import { parseForm, signedInMerchant } from "./session";
import { redirectWith } from "./validation";

export const CONSENT_VALIDITY_MS = 10 * 60_000;

const GONE = ["Consent request expired", "This consent request has expired or was already answered. Start the install again from the app."] as const;

function findRequest(ctx: EmulatorContext, id: string | null): ConsentRequest | undefined {
  return id ? ctx.state.consentRequests.find((candidate) => candidate.id === id) : undefined;
}

function isOpen(ctx: EmulatorContext, consent: ConsentRequest): boolean {
  return !consent.answered && ctx.clock.nowMs() - Date.parse(consent.createdAt) < CONSENT_VALIDITY_MS;
}

function isRequestersSession(request: EmuRequest, ctx: EmulatorContext, consent: ConsentRequest): boolean {
  return signedInMerchant(request, ctx)?.id === consent.merchantId;
}

/** POST /oauth/apps/approve: the consent form's Approve button. Checks in the spec's table order. */
export const approve: Handler = (request, ctx) => {
  const wait = checkOAuthLimit(ctx, "approve", request);
  if (wait !== null) return oauthRateLimited(request.headers.accept, wait);
  const form = parseForm(request.body);
  const consent = findRequest(ctx, form.get("request_id"));
  if (!consent) return errorPage(400, ...GONE);
  if (!isRequestersSession(request, ctx, consent)) {
    return errorPage(403, "Not your consent request", "Sign in as the merchant who opened this consent screen.");
  }
  const app = ctx.state.apps.find((candidate) => candidate.id === consent.appId);
  if (!app) return errorPage(400, ...GONE);

  const storeIds = [...new Set(form.getAll("store_id"))];
  if (storeIds.length === 0) return errorPage(400, "No store selected", "Select at least one store to install the app on.");
  if (storeIds.length > MAX_STORES_PER_CONSENT) {
    return errorPage(400, "Too many stores", `Select at most ${MAX_STORES_PER_CONSENT} stores per consent.`);
  }
  const now = ctx.clock.now();
  const resolved: number[] = [];
  for (const raw of storeIds) {
    const store = /^[0-9]+$/.test(raw) ? ctx.state.stores.find((candidate) => candidate.id === Number(raw)) : undefined;
    if (!store || storeIneligibility(app, store, consent.merchantId!, now)) {
      return errorPage(403, "Store not allowed", "A selected store is not yours or cannot take this app.");
    }
    resolved.push(store.id);
  }
  if (!isOpen(ctx, consent)) return errorPage(400, ...GONE);

  consent.answered = true;
  const code: AuthorizationCode = {
    code: randomHex(32),
    appId: app.id,
    redirectUri: consent.redirectUri,
    codeChallenge: consent.codeChallenge,
    // The emulator's "older scope list" setting (setWithheldScopes): the grant leaves those out.
    scopes: consent.scopes.filter((scope) => !(app.withheldScopes ?? []).includes(scope)),
    storeIds: resolved,
    merchantId: consent.merchantId!,
    createdAt: now.toISOString(),
    used: false,
  };
  ctx.state.authorizationCodes.push(code);
  ctx.save();
  return redirect(redirectWith(consent.redirectUri, { code: code.code, state: consent.state }));
};

/** POST /oauth/apps/deny: the consent form's Deny button. */
export const deny: Handler = (request, ctx) => {
  const form = parseForm(request.body);
  const consent = findRequest(ctx, form.get("request_id"));
  if (!consent || !isOpen(ctx, consent)) return errorPage(400, ...GONE);
  if (!isRequestersSession(request, ctx, consent)) {
    return errorPage(403, "Not your consent request", "Sign in as the merchant who opened this consent screen.");
  }
  consent.answered = true;
  ctx.save();
  return redirect(
    redirectWith(consent.redirectUri, { error: "access_denied", error_description: "The merchant denied the request", state: consent.state }),
  );
};
