import "server-only";
import { createHash, randomUUID } from "node:crypto";
import { PlatformError } from "./errors";

/** The platform's rule for `Idempotency-Key`: at most 64 characters from `A-Z a-z 0-9 _ - : .`. */
const KEY_PATTERN = /^[A-Za-z0-9_\-:.]{1,64}$/;

export function isValidIdempotencyKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/**
 * A fresh key for one logical write. Render it into a form (hidden input) and pass it back on submit, so a form
 * sent twice replays the first answer instead of writing twice. After a 4xx the platform has stored that answer
 * under the key: a corrected submission needs a new key.
 */
export function newIdempotencyKey(prefix = "app"): string {
  const key = `${prefix}:${randomUUID()}`;
  if (!isValidIdempotencyKey(key)) {
    throw new PlatformError({ kind: "local", status: null, code: "invalid_input", message: "Idempotency key prefix is not valid" });
  }
  return key;
}

/**
 * A key derived from stable parts (for example a job name and a date), for writes that must happen once however
 * many times or places the job runs. Hashed, so any parts fit the platform's alphabet and length.
 */
export function deriveIdempotencyKey(...parts: (string | number)[]): string {
  const digest = createHash("sha256").update(parts.map(String).join("\u0000")).digest("base64url");
  return `drv:${digest}`;
}

/** Checks a caller's key before any network call: a malformed one would be a 400 the retry loop cannot fix. */
export function assertIdempotencyKey(key: string): string {
  if (!isValidIdempotencyKey(key)) {
    throw new PlatformError({
      kind: "local",
      status: null,
      code: "invalid_input",
      message: "Idempotency key must be 1 to 64 characters from A-Z a-z 0-9 _ - : .",
      fieldErrors: { idempotencyKey: ["must be 1 to 64 characters from A-Z a-z 0-9 _ - : ."] },
    });
  }
  return key;
}
