import { base64url } from "../util";
import { apiError, type ListPage } from "./envelope";
import type { Parsed } from "./input";
import type { ApiCall } from "./types";

/** Chosen where the spec is silent: 20 items by default, at most 100 (larger values are lowered to 100). */
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

type Position = { at: string; id: number };

export function parseLimit(call: ApiCall): Parsed<number> {
  const raw = call.request.url.searchParams.get("limit");
  if (raw === null || raw === "") return { ok: true, value: DEFAULT_LIMIT };
  if (!/^[0-9]+$/.test(raw) || Number(raw) < 1) {
    return { ok: false, response: apiError(400, "bad_request", "limit must be a positive integer", call.requestId) };
  }
  return { ok: true, value: Math.min(Number(raw), MAX_LIMIT) };
}

/** The cursor is opaque to apps: the position of the last item returned, newest-first order. */
function encodeCursor(position: Position): string {
  return base64url(Buffer.from(JSON.stringify([position.at, position.id])));
}

function decodeCursor(cursor: string): Position | null {
  try {
    const value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown;
    if (Array.isArray(value) && typeof value[0] === "string" && Number.isInteger(value[1])) {
      return { at: value[0], id: value[1] as number };
    }
  } catch {
    // fall through
  }
  return null;
}

/** Newest first (then highest id), after the cursor's position, `limit` at a time. */
export function paginate<T>(call: ApiCall, items: T[], positionOf: (item: T) => Position, shape: (item: T) => unknown): Parsed<ListPage<unknown>> {
  const limit = parseLimit(call);
  if (!limit.ok) return limit;
  const rawCursor = call.request.url.searchParams.get("cursor");
  let after: Position | null = null;
  if (rawCursor) {
    after = decodeCursor(rawCursor);
    if (!after) return { ok: false, response: apiError(400, "bad_request", "cursor is not valid", call.requestId) };
  }
  const sorted = [...items].sort((left, right) => compare(positionOf(right), positionOf(left)));
  const remaining = after ? sorted.filter((item) => compare(positionOf(item), after) < 0) : sorted;
  const page = remaining.slice(0, limit.value);
  const hasMore = remaining.length > page.length;
  const last = page[page.length - 1];
  return {
    ok: true,
    value: {
      items: page.map(shape),
      next_cursor: hasMore && last !== undefined ? encodeCursor(positionOf(last)) : null,
      has_more: hasMore,
    },
  };
}

function compare(left: Position, right: Position): number {
  const byTime = Date.parse(left.at) - Date.parse(right.at);
  return byTime !== 0 ? byTime : left.id - right.id;
}
