import type { IncomingHttpHeaders } from "node:http";
import type { EmuResponse } from "../http/types";
import { randomHex } from "../util";

export type ErrorCode =
  | "bad_request"
  | "unauthorized"
  | "no_credit"
  | "quota_exceeded"
  | "forbidden"
  | "app_uninstalled"
  | "app_suspended"
  | "app_not_approved"
  | "app_plan_required"
  | "not_found"
  | "category_not_empty"
  | "payload_too_large"
  | "validation_error"
  | "invalid_parent"
  | "idempotency_key_reuse"
  | "rate_limited"
  | "too_many_concurrent"
  | "server_error";

/** A client-sent request id is echoed when it is short and plain; otherwise the platform makes one. */
export function requestIdFrom(headers: IncomingHttpHeaders): string {
  const sent = headers["x-request-id"];
  if (typeof sent === "string" && /^[A-Za-z0-9_.:-]{1,128}$/.test(sent)) return sent;
  return `req_${randomHex(12)}`;
}

function meta(requestId: string) {
  return { request_id: requestId, api_version: "v1" };
}

export function apiOk(status: number, data: unknown, requestId: string, headers: Record<string, string> = {}): EmuResponse {
  return {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "x-request-id": requestId, ...headers },
    body: JSON.stringify({ data, meta: meta(requestId) }),
  };
}

export function apiError(
  status: number,
  code: ErrorCode,
  message: string,
  requestId: string,
  extra: { retryAfter?: number; details?: Record<string, string[]> } = {},
): EmuResponse {
  const error: Record<string, unknown> = { code, message };
  const headers: Record<string, string> = { "content-type": "application/json; charset=utf-8", "x-request-id": requestId };
  if (extra.retryAfter !== undefined) {
    error.retry_after = extra.retryAfter;
    headers["retry-after"] = String(extra.retryAfter);
  }
  if (extra.details) error.details = extra.details;
  return { status, headers, body: JSON.stringify({ error, meta: meta(requestId) }) };
}

export type ListPage<T> = { items: T[]; next_cursor: string | null; has_more: boolean };
