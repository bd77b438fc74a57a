/**
 * Delivery signing exactly as the platform documents it: `v1` is the lowercase hex HMAC-SHA256 of `<t>.<raw body>`
 * keyed with the app's signing secret, sent as `X-SVC-Signature: t=<t>,v1=<hex>` next to `X-SVC-Timestamp: <t>`.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const WEBHOOK_USER_AGENT = "Svc-Webhooks/1.0";

export function signPayload(secret: string, timestamp: number, body: string | Buffer): string {
  return createHmac("sha256", secret).update(`${timestamp}.`).update(body).digest("hex");
}

export function signatureHeader(timestamp: number, signature: string): string {
  return `t=${timestamp},v1=${signature}`;
}

/** The receiver's side, used by the emulator's own tests and by anyone checking a captured delivery. */
export function verifySignature(secret: string, header: string, body: string | Buffer): boolean {
  const parts = new Map(
    header.split(",").map((part) => {
      const at = part.indexOf("=");
      return [part.slice(0, at).trim(), part.slice(at + 1).trim()] as const;
    }),
  );
  const t = Number(parts.get("t"));
  const v1 = parts.get("v1") ?? "";
  if (!Number.isInteger(t) || !/^[0-9a-f]{64}$/.test(v1)) return false;
  return timingSafeEqual(Buffer.from(signPayload(secret, t, body), "hex"), Buffer.from(v1, "hex"));
}

export type DeliveryHeaderInput = {
  event: string;
  body: string;
  secret: string;
  /** Unix seconds at signing. */
  timestamp: number;
  /** Absent on webhook.verify. */
  deliveryId: string | null;
  /** Fault injection: sign with a key the app cannot know. */
  badSignature?: boolean;
};

export function deliveryHeaders(input: DeliveryHeaderInput): Record<string, string> {
  const key = input.badSignature ? randomBytes(32).toString("hex") : input.secret;
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    "X-SVC-Timestamp": String(input.timestamp),
    "X-SVC-Signature": signatureHeader(input.timestamp, signPayload(key, input.timestamp, input.body)),
    "X-SVC-Event": input.event,
    "User-Agent": WEBHOOK_USER_AGENT,
  };
  if (input.deliveryId !== null) headers["X-SVC-Delivery"] = input.deliveryId;
  return headers;
}

/** A fresh signing secret, in the same shape as the fixture's (`svcwhsec_` + 48 hex). */
export function newSigningSecret(): string {
  return `svcwhsec_${randomBytes(24).toString("hex")}`;
}
