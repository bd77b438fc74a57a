import "server-only";
import { z } from "zod";
import { PlatformError } from "./errors";
import type { HttpMethod, PlatformResponse, RequestOptions } from "./http";

/**
 * What a resource file (whoami.ts, categories.ts, orders.ts, ...) is made of: one paced, retried call; the zod
 * pieces the platform's shapes share; the parse that turns a mismatch into a PlatformError; the cursor listing.
 * A resource file holds its schema, its reshape into the app's type and its operations, and ends with
 * `defineResource(...)`; listing it in resources.ts puts it on every store client.
 */

/** One paced, retried, logged call on the store's token (the store client's request core). */
export type Caller = (method: HttpMethod, path: string, options?: RequestOptions) => Promise<PlatformResponse>;

export type WriteOptions = {
  /** Hand in the key rendered into the form so a double submission replays instead of writing twice. */
  idempotencyKey?: string;
};

const RESOURCE = Symbol("platform resource");

/** A resource's operations, made for one client from its Caller: `client.<name>` is what `operations` returns. */
export type Resource<Operations> = { readonly [RESOURCE]: true; readonly operations: (call: Caller) => Operations };

export function defineResource<Operations>(operations: (call: Caller) => Operations): Resource<Operations> {
  return { [RESOURCE]: true, operations };
}

export function isResource(value: unknown): value is Resource<unknown> {
  return typeof value === "object" && value !== null && RESOURCE in value;
}

// The platform's shapes. Objects are loose: fields the platform adds later pass through instead of failing the parse.

/** Integers sometimes travel as strings (64-bit ids through JSON); accept both, keep numbers. */
export const intLike = z.union([
  z.number().int(),
  z
    .string()
    .regex(/^-?\d+$/)
    .transform(Number),
]);

/** Money as a decimal string: the platform may send 1500, 1500.5 or "1500.50". */
export const money = z.union([z.number().finite(), z.string().regex(/^-?\d+(\.\d+)?$/)]).transform((value) => {
  if (typeof value === "string") return value;
  const text = String(value);
  return /e/i.test(text) ? value.toFixed(2) : text;
});

export const isoDate = z
  .string()
  .refine((value) => !Number.isNaN(Date.parse(value)), "must be an ISO 8601 date-time")
  .transform((value) => new Date(value));

export const optionalText = z.string().nullish();

export function listEnvelope<T extends z.ZodType>(item: T) {
  return z.looseObject({
    items: z.array(item),
    next_cursor: z.string().nullish(),
    has_more: z.boolean().optional(),
  });
}

/** Parses a platform answer with its schema; a mismatch is a protocol error that names the first bad field. */
export function parseAnswer<S extends z.ZodType>(schema: S, data: unknown, what: string, requestId: string | null = null): z.output<S> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.join(".")}` : "";
  throw new PlatformError({
    kind: "protocol",
    status: null,
    code: "invalid_response",
    message: `The platform's ${what} did not have the documented shape${where}: ${issue?.message ?? "unknown problem"}.`,
    requestId,
  });
}

/** Input this app refuses before any call (a bad id would otherwise become part of a URL path). */
export function invalidInput(field: string, message: string): PlatformError {
  return new PlatformError({
    kind: "local",
    status: null,
    code: "invalid_input",
    message: `${field} ${message}`,
    fieldErrors: { [field]: [message] },
  });
}

export function assertId(field: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) throw invalidInput(field, "must be a positive integer");
  return value;
}

export type Page<T> = { items: T[]; nextCursor: string | null; hasMore: boolean };

/** The platform's list envelope reshaped into the app's Page. */
export function toPage<Raw, T>(raw: { items: Raw[]; next_cursor?: string | null; has_more?: boolean }, map: (item: Raw) => T): Page<T> {
  const nextCursor = raw.next_cursor ?? null;
  return { items: raw.items.map(map), nextCursor, hasMore: raw.has_more ?? nextCursor !== null };
}

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
