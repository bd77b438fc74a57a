import { redact } from "@/lib/log";
import { INTERACTIVE_TIMEOUT_MS, platformFetch, postTokenForm, type Wire } from "@/lib/platform";
import type { CheckResult } from "./types";
import { redirectUriOf } from "@/lib/webhook-url/app-urls";

export type PlatformCheckInput = {
  authUrl: string | null;
  apiUrl: string | null;
  appUrl: string | null;
  clientId: string | null;
  clientSecret: string | null;
};

export type PlatformCheckOptions = { fetch?: typeof fetch; timeoutMs?: number };

/** The app's own transport (its User-Agent, no redirects), so the probes see the platform as the app will. */
function wireOf(options: PlatformCheckOptions): Wire {
  return { fetch: options.fetch, timeoutMs: options.timeoutMs ?? INTERACTIVE_TIMEOUT_MS };
}

/**
 * A code that can never have been issued (issued codes are 64 hex characters), so the platform never claims or
 * spends anything: per the spec it checks the client first and answers invalid_client for bad credentials, and
 * only then looks the code up and answers invalid_grant. The probe costs one request of the token endpoint's
 * budget (60 per 300 seconds) and changes nothing.
 */
const PROBE_CODE = "doctor-probe-this-is-not-an-authorization-code";
const PROBE_VERIFIER = "doctor-probe-verifier-0000000000000000000000000000";

/** What went wrong on the wire, from the transport's network error: its cause is what fetch threw. */
function failure(error: unknown): string {
  if (error instanceof Error && "code" in error && error.code === "timeout") return "no answer in time";
  const thrown = error instanceof Error && error.cause !== undefined ? error.cause : error;
  const cause = thrown instanceof Error && thrown.cause instanceof Error ? `: ${thrown.cause.message}` : "";
  return String(redact(`${thrown instanceof Error ? thrown.message : String(thrown)}${cause}`));
}

async function readJson(response: Response): Promise<Record<string, unknown> | null> {
  try {
    const parsed: unknown = JSON.parse(await response.text());
    return parsed && typeof parsed === "object" ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export async function checkClientCredentials(input: PlatformCheckInput, options: PlatformCheckOptions = {}): Promise<CheckResult> {
  const base = { id: "platform.credentials", title: "Platform credentials" };
  const { authUrl, appUrl, clientId, clientSecret } = input;
  if (!authUrl || !appUrl || !clientId || !clientSecret) {
    return { ...base, status: "skip", detail: "needs well-formed SVC_AUTH_URL, APP_URL, SVC_CLIENT_ID and SVC_CLIENT_SECRET" };
  }
  let response: Response;
  try {
    const probe = {
      grant_type: "authorization_code",
      code: PROBE_CODE,
      redirect_uri: redirectUriOf(appUrl),
      code_verifier: PROBE_VERIFIER,
      client_id: clientId,
      client_secret: clientSecret,
    };
    response = await postTokenForm(authUrl, probe, wireOf(options));
  } catch (error) {
    return {
      ...base,
      status: "fail",
      detail: `token endpoint unreachable: ${failure(error)}`,
      fix: "check SVC_AUTH_URL and that this host can make outbound https requests",
    };
  }
  const body = await readJson(response);
  const error = typeof body?.error === "string" ? body.error : null;
  if (error === "invalid_grant") {
    return {
      ...base,
      status: "pass",
      detail:
        "client id and secret accepted (probed the token endpoint with a deliberately invalid code: nothing is installed or spent, one request of its 60 per 5 minutes)",
    };
  }
  if (error === "invalid_client") {
    return {
      ...base,
      status: "fail",
      detail: "the platform rejected the client id or secret (invalid_client)",
      fix: "copy SVC_CLIENT_ID and SVC_CLIENT_SECRET again from the developer console (a rotated secret replaces the old one at once)",
    };
  }
  if (response.status === 429) {
    const retryAfter = response.headers.get("retry-after");
    return {
      ...base,
      status: "fail",
      detail: `the token endpoint is rate limiting this client${retryAfter ? ` (retry after ${retryAfter} s)` : ""}`,
      fix: "run the doctor again after the wait",
    };
  }
  return {
    ...base,
    status: "fail",
    detail: `unexpected answer from the token endpoint: HTTP ${response.status}${error ? ` ${error}` : ""}`,
    fix: "check that SVC_AUTH_URL is the platform's auth host (consent and token endpoints)",
  };
}

/** GET /v1/whoami without a token: the platform's API answers 401 with its error envelope, and nothing is counted against an install. */
export async function checkApiReachable(input: PlatformCheckInput, options: PlatformCheckOptions = {}): Promise<CheckResult> {
  const base = { id: "platform.api", title: "Platform API" };
  if (!input.apiUrl) return { ...base, status: "skip", detail: "needs a well-formed SVC_API_URL" };
  let response: Response;
  try {
    const headers = { Accept: "application/json" };
    response = await platformFetch(`${input.apiUrl.replace(/\/+$/, "")}/v1/whoami`, { method: "GET", headers }, wireOf(options));
  } catch (error) {
    return {
      ...base,
      status: "fail",
      detail: `unreachable: ${failure(error)}`,
      fix: "check SVC_API_URL and that this host can make outbound https requests",
    };
  }
  const body = await readJson(response);
  if (response.status === 401 && body && typeof body.error === "object" && body.error !== null) {
    return { ...base, status: "pass", detail: "reachable (answered 401 to a call without a token, as it should)" };
  }
  return {
    ...base,
    status: "fail",
    detail: `answered HTTP ${response.status} to GET /v1/whoami without a token, not the platform's 401 error envelope`,
    fix: "set SVC_API_URL to the platform's REST host ({base_url}), without /v1",
  };
}
