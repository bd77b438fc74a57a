/**
 * Reads a request body as exact bytes with a size cap. Bytes, not text: `request.text()` drops a leading BOM and
 * replaces invalid UTF-8, so an HMAC over it could differ from the sender's. The cap is checked against
 * Content-Length before reading, and again while streaming, because a chunked body declares no length.
 */

/** Largest webhook body accepted. Order events with hundreds of items stay far below it. */
export const WEBHOOK_MAX_BODY_BYTES = 1024 * 1024;

/** Longest time a whole webhook body may take to arrive. A delivery is small and sent at once; a trickle is not one. */
export const WEBHOOK_BODY_DEADLINE_MS = 10_000;

export type BodyResult = { ok: true; body: Buffer } | { ok: false; reason: "too_large" | "bad_length" | "timeout" };

/** What the deadline's promise settles with, so a read that lost the race is told apart without an exception. */
const TIMED_OUT = Symbol("timed out");

export async function readLimitedBody(
  request: Request,
  limit: number = WEBHOOK_MAX_BODY_BYTES,
  deadlineMs: number = WEBHOOK_BODY_DEADLINE_MS,
): Promise<BodyResult> {
  const declared = request.headers.get("content-length");
  if (declared !== null) {
    // Headers come trimmed, so the value is the digits or nothing acceptable.
    if (!/^\d{1,15}$/.test(declared)) return { ok: false, reason: "bad_length" };
    if (Number(declared) > limit) return { ok: false, reason: "too_large" };
  }
  if (!request.body) return { ok: true, body: Buffer.alloc(0) };

  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  // One timer for the whole body, raced by every read (not one timer per chunk).
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(resolve, deadlineMs, TIMED_OUT);
  });
  try {
    for (;;) {
      const chunk = await Promise.race([reader.read(), deadline]);
      // The stream is left as it is, not cancelled: under Next, cancelling a request body still being sent holds
      // back the answer until the sender finishes. The 408 goes out with `Connection: close`, which ends it.
      if (chunk === TIMED_OUT) return { ok: false, reason: "timeout" };
      const { done, value } = chunk;
      if (done) break;
      total += value.byteLength;
      if (total > limit) {
        // Stop pulling: the rest of the stream is never buffered.
        await reader.cancel().catch(() => {});
        return { ok: false, reason: "too_large" };
      }
      chunks.push(value);
    }
  } finally {
    clearTimeout(timer);
  }
  return { ok: true, body: Buffer.concat(chunks, total) };
}
