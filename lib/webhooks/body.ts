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

class BodyDeadline extends Error {}

/** The next chunk, or BodyDeadline once the deadline has passed. */
function readBefore(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  deadlineAt: number,
): Promise<ReadableStreamReadResult<Uint8Array>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new BodyDeadline()), Math.max(0, deadlineAt - Date.now()));
  });
  return Promise.race([reader.read(), deadline]).finally(() => clearTimeout(timer));
}

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
  const deadlineAt = Date.now() + deadlineMs;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await readBefore(reader, deadlineAt);
    } catch (error) {
      if (!(error instanceof BodyDeadline)) throw error;
      // The stream is left as it is, not cancelled: under Next, cancelling a request body still being sent holds
      // back the answer until the sender finishes. The 408 goes out with `Connection: close`, which ends it.
      return { ok: false, reason: "timeout" };
    }
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
  return { ok: true, body: Buffer.concat(chunks, total) };
}
