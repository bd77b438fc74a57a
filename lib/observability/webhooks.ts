import type { WebhookOutcome } from "@/lib/webhooks/outcome";
import { recordWebhookDelivery, type WebhookOutcomeLabel } from "./metrics";
import { withSpan } from "./trace";

/** What an answer means for the deliveries counter: the status and the body's code decide, nothing else. */
export function classifyDelivery(result: WebhookOutcome): { outcome: WebhookOutcomeLabel; reason?: string } {
  if (result.body.ok) return { outcome: result.body.duplicate ? "duplicate" : "applied" };
  return { outcome: result.status >= 500 ? "failed" : "refused", reason: result.body.error };
}

/** One delivery: the receiver's span (its steps nest under it), the outcome counted, the time observed. */
export async function observeDelivery(receive: () => Promise<WebhookOutcome>): Promise<WebhookOutcome> {
  const startedAt = performance.now();
  try {
    const result = await withSpan("webhook.receive", {}, async (span) => {
      const answered = await receive();
      span?.setAttribute("http.response.status_code", answered.status);
      return answered;
    });
    const { outcome, reason } = classifyDelivery(result);
    recordWebhookDelivery(outcome, reason, (performance.now() - startedAt) / 1000);
    return result;
  } catch (error) {
    recordWebhookDelivery("failed", "exception", (performance.now() - startedAt) / 1000);
    throw error;
  }
}
