import "server-only";
import { PlatformError } from "./errors";
import type { Page } from "./types";

/**
 * `for await` over a cursor list: sends `next_cursor` back as `cursor` and stops when `has_more` is false.
 * A cursor that comes back unchanged would loop forever; it is reported as a protocol error instead.
 */
export async function* paginate<T>(fetchPage: (cursor: string | undefined) => Promise<Page<T>>, startCursor?: string): AsyncGenerator<T> {
  let cursor = startCursor;
  const seen = new Set<string>();
  for (;;) {
    const page = await fetchPage(cursor);
    yield* page.items;
    if (!page.hasMore || !page.nextCursor) return;
    if (seen.has(page.nextCursor)) {
      throw new PlatformError({
        kind: "protocol",
        status: null,
        code: "cursor_loop",
        message: "The platform returned a cursor it had already returned; stopping to avoid an endless listing.",
      });
    }
    seen.add(page.nextCursor);
    cursor = page.nextCursor;
  }
}

/** The platform's list envelope reshaped into the app's Page. */
export function toPage<Raw, T>(raw: { items: Raw[]; next_cursor?: string | null; has_more?: boolean }, map: (item: Raw) => T): Page<T> {
  const nextCursor = raw.next_cursor ?? null;
  return { items: raw.items.map(map), nextCursor, hasMore: raw.has_more ?? nextCursor !== null };
}
