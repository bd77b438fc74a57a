import { signDelivery } from "@/lib/webhooks/samples";

/** A delivery as the platform posts it to /api/webhooks: `envelope` signed with `secret`, now. */
export function signedWebhookRequest(envelope: Record<string, unknown>, secret: string, options: { deliveryId?: string } = {}): Request {
  const signed = signDelivery(envelope, secret, options);
  return new Request("http://app.test/api/webhooks", {
    method: "POST",
    body: new Uint8Array(signed.body),
    headers: signed.headers,
    duplex: "half",
  } as RequestInit);
}
