import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Webhook signature check, exactly as the platform documents it:
 *   X-SVC-Signature: t=<timestamp>,v1=<lowercase hex HMAC-SHA256 of "<t>.<raw body>">
 *   X-SVC-Timestamp: <the same t>
 * Pure (no clock, no env) so the fixed test vectors pin it down.
 */

/** The platform's tolerance: a timestamp more than 5 minutes off the receiver's clock, either way, is refused. */
export const SIGNATURE_TOLERANCE_SECONDS = 5 * 60;

export type SignatureFailure =
  | "missing_signature"
  | "missing_timestamp"
  | "malformed_signature"
  | "malformed_timestamp"
  | "timestamp_mismatch"
  | "timestamp_out_of_tolerance"
  | "signature_mismatch";

export type SignatureCheck = { ok: true; timestamp: number } | { ok: false; reason: SignatureFailure };

export type VerifySignatureInput = {
  /** The exact bytes received, before any decoding. */
  rawBody: Uint8Array;
  /** X-SVC-Signature. */
  header: string | null | undefined;
  /** X-SVC-Timestamp. */
  timestampHeader: string | null | undefined;
  secret: string;
  now: Date;
  toleranceSeconds?: number;
};

// Unix seconds as decimal digits; 12 digits is far beyond any plausible date and keeps Number exact.
const TIMESTAMP = /^[0-9]{1,12}$/;
const HEX_SHA256 = /^[0-9a-f]{64}$/;

export function computeSignature(secret: string, timestamp: string, rawBody: Uint8Array): string {
  // Strings go in as UTF-8 (Node's default for update() and Buffer.from()).
  return createHmac("sha256", secret).update(`${timestamp}.`).update(rawBody).digest("hex");
}

/** The header pair a sender puts on a request (the trigger tool, the bench and tests sign with it). */
export function signatureHeaders(secret: string, rawBody: Uint8Array, timestamp: number): Record<string, string> {
  const t = String(Math.floor(timestamp));
  return { "x-svc-timestamp": t, "x-svc-signature": `t=${t},v1=${computeSignature(secret, t, rawBody)}` };
}

type ParsedHeader = { t: string; v1: string[] } | null;

/** `t=...,v1=...`; unknown keys are ignored (a later scheme may add some), a repeated `t` is malformed. */
function parseHeader(header: string): ParsedHeader {
  let t: string | undefined;
  const v1: string[] = [];
  for (const part of header.split(",")) {
    const separator = part.indexOf("=");
    if (separator <= 0) return null;
    const key = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (key === "t") {
      if (t !== undefined) return null;
      t = value;
    } else if (key === "v1") {
      v1.push(value);
    }
  }
  if (t === undefined || v1.length === 0) return null;
  return { t, v1 };
}

export type HeaderCheck = { ok: true; timestamp: number; t: string; v1: string[] } | { ok: false; reason: SignatureFailure };

/**
 * Everything the headers alone can refuse: missing, malformed, or a timestamp outside the tolerance. The receiver
 * runs it before reading a single byte of the body, so a request that could never verify holds no connection.
 */
export function checkSignatureHeaders(input: Omit<VerifySignatureInput, "rawBody" | "secret">): HeaderCheck {
  const { header, timestampHeader } = input;
  if (!header) return { ok: false, reason: "missing_signature" };
  if (!timestampHeader) return { ok: false, reason: "missing_timestamp" };
  const parsed = parseHeader(header);
  if (!parsed) return { ok: false, reason: "malformed_signature" };
  if (!TIMESTAMP.test(timestampHeader) || !TIMESTAMP.test(parsed.t)) return { ok: false, reason: "malformed_timestamp" };
  if (parsed.t !== timestampHeader) return { ok: false, reason: "timestamp_mismatch" };

  const timestamp = Number(parsed.t);
  const tolerance = input.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS;
  const skew = Math.abs(input.now.getTime() / 1000 - timestamp);
  if (skew > tolerance) return { ok: false, reason: "timestamp_out_of_tolerance" };
  // A header whose every v1 is malformed cannot match any body either.
  if (!parsed.v1.some((candidate) => HEX_SHA256.test(candidate))) return { ok: false, reason: "malformed_signature" };
  return { ok: true, timestamp, t: parsed.t, v1: parsed.v1 };
}

export function verifySignature(input: VerifySignatureInput): SignatureCheck {
  const headers = checkSignatureHeaders(input);
  if (!headers.ok) return headers;
  const expected = Buffer.from(computeSignature(input.secret, headers.t, input.rawBody));
  let matched = false;
  for (const candidate of headers.v1) {
    // Only well-formed candidates reach the comparison, so both buffers have the same length (a length check
    // would otherwise leak nothing secret either: the expected length is public).
    if (!HEX_SHA256.test(candidate)) continue;
    if (timingSafeEqual(expected, Buffer.from(candidate))) matched = true;
  }
  if (!matched) return { ok: false, reason: "signature_mismatch" };
  return { ok: true, timestamp: headers.timestamp };
}
