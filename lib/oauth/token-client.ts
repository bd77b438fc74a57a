import "server-only";
import { env } from "@/lib/env";
import { redirectUriOf } from "@/lib/webhook-url/app-urls";
import { log } from "@/lib/log";
import { buildAuthorizeUrl } from "@/lib/oauth/authorize-url";
import { errorFromTokenResponse, parseTokenSuccess } from "@/lib/oauth/token-response";
import { APP_USER_AGENT, PlatformError, postTokenForm, type TokenExchangeResult } from "@/lib/platform";

/**
 * The app's side of the platform's OAuth endpoints. The token request is a plain form post on the platform
 * boundary's transport (postTokenForm: its User-Agent, timeout, no redirects) rather than oauth4webapi's helpers:
 * the answer carries a non-standard `stores` array and the spec's error table is mapped exactly
 * (lib/oauth/token-response.ts), which the library's generic handling would get in the way of.
 */

export type OAuthClient = {
  authUrl: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  scopes?: readonly string[];
  /** Sent on every token call: without one the platform's gateway answers 403 with an HTML challenge. */
  userAgent: string;
  timeoutMs?: number;
  /** Tests hand in their own. */
  fetch?: typeof fetch;
};

export function oauthClientFromEnv(): OAuthClient {
  return {
    authUrl: env.SVC_AUTH_URL,
    clientId: env.SVC_CLIENT_ID,
    clientSecret: env.SVC_CLIENT_SECRET,
    redirectUri: redirectUriOf(env.APP_URL),
    scopes: env.SVC_SCOPES,
    userAgent: APP_USER_AGENT,
  };
}

export function authorizeUrl(client: OAuthClient, attempt: { state: string; codeChallenge: string }): string {
  return buildAuthorizeUrl({
    authUrl: client.authUrl,
    clientId: client.clientId,
    redirectUri: client.redirectUri,
    scopes: client.scopes,
    state: attempt.state,
    codeChallenge: attempt.codeChallenge,
  });
}

/**
 * Trades an authorization code for one token per installed store. Never retried: the platform spends the code at
 * the first attempt it claims, whatever happens next, so a second try could only fail.
 * Throws PlatformError of kind "oauth" (the spec's error table), "network" or "protocol".
 */
export async function exchangeCode(
  client: OAuthClient,
  grant: { code: string; codeVerifier: string },
): Promise<TokenExchangeResult> {
  const form = {
    grant_type: "authorization_code",
    code: grant.code,
    redirect_uri: client.redirectUri,
    code_verifier: grant.codeVerifier,
    client_id: client.clientId,
    client_secret: client.clientSecret,
  };
  let response: Response;
  try {
    response = await postTokenForm(client.authUrl, form, { userAgent: client.userAgent, timeoutMs: client.timeoutMs, fetch: client.fetch });
  } catch (error) {
    // postTokenForm throws only its network PlatformError, renamed here for the token endpoint (without the cause).
    const timedOut = (error as PlatformError).code === "timeout";
    throw new PlatformError({
      kind: "network",
      status: null,
      code: timedOut ? "timeout" : "unreachable",
      message: timedOut ? "The token endpoint did not answer in time" : "The token endpoint could not be reached",
    });
  }
  // Stryker disable next-line StringLiteral,ArrowFunction: equivalent, any body that is not JSON (or undefined) leads to the same error
  const text = await response.text().catch(() => "");
  if (!response.ok) {
    const error = errorFromTokenResponse(response.status, response.headers, text);
    log.warn("token exchange refused", { status: error.status, oauthError: error.code, requestId: error.requestId });
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new PlatformError({
      kind: "protocol",
      status: response.status,
      code: "unexpected_response",
      message: `The token endpoint answered ${response.status} with a body that is not JSON`,
      requestId: response.headers.get("x-request-id"),
    });
  }
  return parseTokenSuccess(json);
}
