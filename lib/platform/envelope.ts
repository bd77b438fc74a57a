import "server-only";
import { z } from "zod";
import { PlatformError } from "./errors";
import { parseRetryAfter } from "./retry";

/**
 * Turns one HTTP answer of the REST API into data or a PlatformError. Platform messages are kept (they are written
 * for developers and never carry secrets), except where the app can say better what the merchant must do.
 */

const envelopeMeta = z.looseObject({ request_id: z.string().optional(), api_version: z.string().optional() });

const successEnvelope = z.looseObject({ data: z.unknown(), meta: envelopeMeta.optional() });

const errorEnvelope = z.looseObject({
  error: z.looseObject({
    code: z.string().optional(),
    message: z.string().optional(),
    retry_after: z.union([z.number(), z.string()]).nullish(),
  }),
  meta: envelopeMeta.optional(),
});

export type RawAnswer = { status: number; headers: Headers; bodyText: string };

export type Success = { data: unknown; requestId: string | null; replayed: boolean };

const WHAT_TO_DO: Record<string, string> = {
  unauthorized:
    "The platform no longer accepts this store's access token (the app was uninstalled or installed again). The merchant must install the app again.",
  app_uninstalled: "The app is no longer installed on this store. The merchant must install it again to continue.",
  app_suspended:
    "The platform has suspended this app. Calls work again as soon as the suspension is lifted; nothing needs to change on the store.",
  app_not_approved:
    "The app is not approved by the platform yet and this store is not its developer's. Use a store of the developer until the app is approved.",
  app_plan_required:
    "This store's plan (or its expired paid plan) is below the app's minimum plan. The merchant must upgrade the store's plan.",
  no_credit: "The store's messaging wallet is empty. The merchant must top it up; retrying does not help.",
  quota_exceeded: "The store reached its monthly request quota. Calls work again next month or when the quota is raised.",
};

function parseJson(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function requestIdOf(headers: Headers, body: unknown): string | null {
  const fromBody = (body as { meta?: { request_id?: unknown } } | undefined)?.meta?.request_id;
  return typeof fromBody === "string" ? fromBody : headers.get("x-request-id");
}

/** Field details as `{ field: [messages] }`, accepting the common spellings (object of strings or arrays, list of `{ field, message }`). */
export function fieldErrorsOf(details: unknown): Record<string, string[]> {
  const result: Record<string, string[]> = {};
  const add = (field: unknown, message: unknown) => {
    if (typeof field !== "string" || typeof message !== "string") return;
    (result[field] ??= []).push(message);
  };
  if (Array.isArray(details)) {
    for (const entry of details) {
      if (entry && typeof entry === "object") {
        const item = entry as Record<string, unknown>;
        add(item.field ?? item.path ?? item.name, item.message);
      }
    }
  } else if (details && typeof details === "object") {
    for (const [field, value] of Object.entries(details as Record<string, unknown>)) {
      for (const message of Array.isArray(value) ? value : [value]) add(field, message);
    }
  }
  return result;
}

export function readSuccess(answer: RawAnswer): Success {
  const body = parseJson(answer.bodyText);
  const parsed = successEnvelope.safeParse(body);
  const requestId = requestIdOf(answer.headers, body);
  if (!parsed.success || !("data" in (body as object))) {
    throw new PlatformError({
      kind: "protocol",
      status: answer.status,
      code: "invalid_response",
      message: `The platform answered HTTP ${answer.status} without the expected { data, meta } envelope.`,
      requestId,
    });
  }
  return { data: parsed.data.data, requestId, replayed: answer.headers.get("idempotency-replay") === "1" };
}

export function readError(answer: RawAnswer, nowMs: number): PlatformError {
  const body = parseJson(answer.bodyText);
  const requestId = requestIdOf(answer.headers, body);
  const parsed = errorEnvelope.safeParse(body);
  const headerWaitMs = parseRetryAfter(answer.headers.get("retry-after"), nowMs);
  const bodyRetry = parsed.success ? Number(parsed.data.error.retry_after ?? Number.NaN) : Number.NaN;
  const retryAfter = headerWaitMs !== null ? headerWaitMs / 1000 : Number.isFinite(bodyRetry) ? bodyRetry : null;

  if (!parsed.success) {
    return new PlatformError({
      kind: "protocol",
      status: answer.status,
      code: answer.status >= 500 ? "server_error" : answer.status === 429 ? "rate_limited" : `http_${answer.status}`,
      message: `The platform answered HTTP ${answer.status} without a readable error.`,
      requestId,
      retryAfter,
    });
  }
  const error = parsed.data.error;
  const code = error.code ?? (answer.status >= 500 ? "server_error" : `http_${answer.status}`);
  const platformMessage = error.message ?? `The platform answered HTTP ${answer.status}.`;
  const advice = answer.status === 401 ? WHAT_TO_DO.unauthorized : WHAT_TO_DO[code];
  return new PlatformError({
    kind: "api",
    status: answer.status,
    code,
    message: advice ?? platformMessage,
    requestId,
    retryAfter,
    fieldErrors: fieldErrorsOf(error.details ?? error.fields ?? error.errors),
  });
}
