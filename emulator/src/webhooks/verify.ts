/**
 * The console's verify button: one signed `webhook.verify` POST (store 0, no delivery id). Any 2xx within 6 s
 * marks the URL verified and re-enables an endpoint disabled by failures; deliveries already dead stay dead.
 * The request is recorded in the delivery log like any other, so the developer sees its answer.
 */
import type { EmulatorContext } from "../http/types";
import type { WebhookDelivery } from "../model";
import { buildEnvelope, newDeliveryId } from "./events";
import { consoleApp } from "./policy";
import { VERIFY_TIMEOUT_MS } from "./retry";
import { deliveryHeaders } from "./signing";
import { postWebhook } from "./transport";

export type VerifyResult = { ok: boolean; status: number | null; error: string | null };

export async function verifyEndpoint(
  ctx: EmulatorContext,
  deps: { fetch: typeof fetch; stopSignal: AbortSignal },
): Promise<VerifyResult> {
  const app = consoleApp(ctx);
  if (!app) return { ok: false, status: null, error: "no app is registered" };
  if (!app.webhook.url) return { ok: false, status: null, error: "no webhook URL is set" };

  const envelope = buildEnvelope(ctx, "webhook.verify", 0, { client_id: app.clientId, url: app.webhook.url });
  const body = JSON.stringify(envelope);
  const at = ctx.clock.now().toISOString();
  const headers = deliveryHeaders({
    event: envelope.event,
    body,
    secret: app.webhook.secret,
    timestamp: Math.floor(Date.now() / 1000),
    deliveryId: null,
  });
  const result = await postWebhook(deps.fetch, app.webhook.url, headers, body, VERIFY_TIMEOUT_MS, deps.stopSignal);

  const record: WebhookDelivery = {
    id: newDeliveryId(),
    eventId: envelope.id,
    event: envelope.event,
    installId: null,
    storeId: 0,
    body,
    state: result.ok ? "succeeded" : "dead",
    attempts: [{ at, status: result.status, error: result.error, durationMs: result.durationMs, responseSnippet: result.responseSnippet }],
    nextAttemptAt: null,
    createdAt: at,
    droppedReason: null,
  };
  ctx.state.deliveries.push(record);
  if (result.ok) {
    app.webhook.verified = true;
    app.webhook.disabled = false;
    app.webhook.consecutiveFailures = 0;
  }
  ctx.save();
  return { ok: result.ok, status: result.status, error: result.error };
}
