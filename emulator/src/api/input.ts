import { apiError } from "./envelope";
import type { ApiCall } from "./types";
import type { EmuResponse } from "../http/types";

export type Parsed<T> = { ok: true; value: T } | { ok: false; response: EmuResponse };

/** The JSON body as an object; an empty body is `{}`. Refuses bodies over `maxBytes` with 413. */
export function jsonBody(call: ApiCall, maxBytes: number): Parsed<Record<string, unknown>> {
  if (call.request.body.length > maxBytes) {
    return { ok: false, response: apiError(413, "payload_too_large", `Payload too large (at most ${maxBytes} bytes)`, call.requestId) };
  }
  const text = call.request.body.toString("utf8").trim();
  if (text === "") return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, response: apiError(400, "bad_request", "The body is not valid JSON", call.requestId) };
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    return { ok: false, response: apiError(400, "bad_request", "The body must be a JSON object", call.requestId) };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

export function isInteger(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value);
}
