import { z } from "zod";
import { PlatformError, type TokenExchangeResult } from "@/lib/platform";
import type { FailureReason } from "./failure-reasons";

/**
 * The token endpoint's answers, both ways: a 200 body becomes the app's TokenExchangeResult, anything else a
 * PlatformError whose message is safe to log (it never holds a token: only the platform's error code and its
 * fixed description). failureReasonFor() then picks the page the merchant sees.
 */

const storeEntry = z.object({
  store_id: z.number().int().positive(),
  store_name: z.string(),
  install_id: z.number().int().positive(),
  access_token: z.string().min(1),
});

const successBody = z.object({
  token_type: z.string().optional(),
  scope: z.string().optional().default(""),
  stores: z.array(storeEntry),
});

/** The platform's own description of the only invalid_grant that is not about the code. */
const NO_STORE_DESCRIPTION = /no approved store could be installed/i;

export function parseTokenSuccess(body: unknown): TokenExchangeResult {
  const parsed = successBody.safeParse(body);
  if (!parsed.success) {
    // zod's issues name paths and expectations; drop received values so a token can never ride along.
    const where = parsed.error.issues.map((issue) => issue.path.join(".") || "(body)").join(", ");
    throw new PlatformError({
      kind: "protocol",
      status: 200,
      code: "unexpected_response",
      message: `The token endpoint answered 200 with an unexpected body (${where})`,
    });
  }
  if (parsed.data.token_type !== undefined && parsed.data.token_type.toLowerCase() !== "bearer") {
    throw new PlatformError({
      kind: "protocol",
      status: 200,
      code: "unexpected_response",
      message: "The token endpoint issued a token type other than Bearer",
    });
  }
  const seen = new Set<number>();
  const stores = parsed.data.stores
    .filter((entry) => !seen.has(entry.store_id) && seen.add(entry.store_id))
    .map((entry) => ({
      storeId: entry.store_id,
      storeName: entry.store_name,
      installId: entry.install_id,
      accessToken: entry.access_token,
    }));
  if (stores.length === 0) {
    // The spec answers this case with invalid_grant; a 200 without stores is read the same way.
    throw new PlatformError({
      kind: "oauth",
      status: 200,
      code: "invalid_grant",
      message: "Token endpoint refused the exchange: invalid_grant (No approved store could be installed)",
    });
  }
  return { scopes: parsed.data.scope.split(/\s/).filter(Boolean), stores };
}

const errorBody = z.object({ error: z.string().min(1).max(100), error_description: z.string().optional() });

function retryAfterSeconds(headers: Headers): number | null {
  const value = headers.get("retry-after");
  if (!value) return null;
  const seconds = Number(value);
  // A negative number is no wait the app honours, nor a date.
  if (Number.isFinite(seconds)) return seconds < 0 ? null : Math.ceil(seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/** Printable, short and token-free, or nothing. */
function safeDescription(description: string | undefined): string | null {
  if (!description) return null;
  const clean = description.replace(/[^\x20-\x7e]/g, "").slice(0, 200);
  return /svcpk_|svcas_|svcwhsec_/.test(clean) ? null : clean;
}

export function errorFromTokenResponse(status: number, headers: Headers, bodyText: string): PlatformError {
  const requestId = headers.get("x-request-id");
  const retryAfter = retryAfterSeconds(headers);
  let json: unknown;
  try {
    json = JSON.parse(bodyText);
  } catch {
    // Not JSON: json stays undefined, which no error shape below accepts.
  }
  const parsed = errorBody.safeParse(json);
  if (parsed.success) {
    const description = safeDescription(parsed.data.error_description);
    return new PlatformError({
      kind: "oauth",
      status,
      code: parsed.data.error,
      message: `Token endpoint refused the exchange: ${parsed.data.error}${description ? ` (${description})` : ""}`,
      requestId,
      retryAfter,
    });
  }
  // The rate limiter may still answer in its own JSON shape ({ error: { code } }) or in HTML.
  if (status === 429) {
    return new PlatformError({
      kind: "oauth",
      status,
      code: "rate_limited",
      message: "Token endpoint refused the exchange: rate_limited",
      requestId,
      retryAfter,
    });
  }
  if (status === 403) {
    return new PlatformError({
      kind: "protocol",
      status,
      code: "blocked",
      message: "The token endpoint answered 403 without an OAuth error (a gateway challenge: is User-Agent sent?)",
      requestId,
    });
  }
  return new PlatformError({
    kind: "protocol",
    status,
    code: "unexpected_response",
    message: `The token endpoint answered ${status} with a body that is not an OAuth error`,
    requestId,
  });
}

// A Map, not an object literal: the code comes from the platform's answer, and "constructor" must not find Object's.
const OAUTH_REASONS = new Map<string, FailureReason>([
  ["invalid_client", "invalid_client"],
  ["unsupported_grant_type", "unsupported_grant_type"],
  ["server_error", "server_error"],
  ["rate_limited", "rate_limited"],
]);

/** The failure page for an error raised while finishing an install. Anything that is not a PlatformError happened
 *  in the app after the platform said yes (database, key configuration). */
export function failureReasonFor(error: unknown): FailureReason {
  if (!(error instanceof PlatformError)) return "store_failed";
  if (error.status === 429) return "rate_limited";
  switch (error.kind) {
    case "network":
      return "network";
    case "oauth":
      if (error.code === "invalid_grant") return NO_STORE_DESCRIPTION.test(error.message) ? "no_store_installed" : "invalid_grant";
      return OAUTH_REASONS.get(error.code) ?? ((error.status ?? 0) >= 500 ? "server_error" : "protocol");
    case "protocol":
      if (error.code === "blocked") return "blocked";
      return (error.status ?? 0) >= 500 ? "server_error" : "protocol";
    default:
      return "protocol";
  }
}
