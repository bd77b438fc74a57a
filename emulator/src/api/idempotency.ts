import type { EmuResponse, EmulatorContext } from "../http/types";
import type { IdempotencyRecord, Install } from "../model";
import { sha256Hex } from "../util";
import { apiError } from "./envelope";

export const IDEMPOTENCY_KEY_SHAPE = /^[A-Za-z0-9_\-:.]{1,64}$/;
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
const WRITE_METHODS = ["POST", "PATCH", "DELETE"];

export function needsIdempotencyKey(method: string): boolean {
  return WRITE_METHODS.includes(method);
}

type Outcome = { kind: "run"; store(response: EmuResponse): void } | { kind: "answer"; response: EmuResponse };

/**
 * The seven rules: keys required on writes and well formed; scoped to one token; stored 24 h; replay with
 * `Idempotency-Replay: 1`; reuse with another method, path or body refused (query ignored); 4xx stored but not 5xx
 * or 429; stored when the first request finishes (so two at once both run).
 */
export function idempotency(
  ctx: EmulatorContext,
  install: Install,
  request: { method: string; pathname: string; body: Buffer; key: string | string[] | undefined },
  requestId: string,
): Outcome {
  const key = request.key;
  if (key === undefined) return { kind: "answer", response: apiError(400, "bad_request", "Idempotency-Key header is required", requestId) };
  if (typeof key !== "string" || !IDEMPOTENCY_KEY_SHAPE.test(key)) {
    return {
      kind: "answer",
      response: apiError(400, "bad_request", "Idempotency-Key must be 1 to 64 characters from A-Z a-z 0-9 _ - : .", requestId),
    };
  }
  const now = ctx.clock.nowMs();
  const records = ctx.state.idempotency;
  const fresh = records.filter((record) => now - Date.parse(record.storedAt) < IDEMPOTENCY_TTL_MS);
  if (fresh.length !== records.length) ctx.state.idempotency = fresh;
  const recordKey = `${install.keyId}:${key}`;
  const bodyHash = sha256Hex(request.body);
  const existing = ctx.state.idempotency.find((record) => record.key === recordKey);
  if (existing) {
    if (existing.method !== request.method || existing.path !== request.pathname || existing.bodyHash !== bodyHash) {
      return {
        kind: "answer",
        response: apiError(422, "idempotency_key_reuse", "This Idempotency-Key was used with a different request", requestId),
      };
    }
    return {
      kind: "answer",
      response: {
        status: existing.status,
        headers: { "content-type": "application/json; charset=utf-8", "x-request-id": requestId, "idempotency-replay": "1" },
        body: existing.responseBody,
      },
    };
  }
  return {
    kind: "run",
    store(response) {
      if (response.status >= 500 || response.status === 429) return;
      // A simultaneous request with the same key may have finished first: the first stored answer wins.
      if (ctx.state.idempotency.some((record) => record.key === recordKey)) return;
      const record: IdempotencyRecord = {
        key: recordKey,
        method: request.method,
        path: request.pathname,
        bodyHash,
        status: response.status,
        responseBody: typeof response.body === "string" ? response.body : (response.body?.toString("utf8") ?? ""),
        storedAt: new Date(now).toISOString(),
      };
      ctx.state.idempotency.push(record);
      ctx.save();
    },
  };
}
