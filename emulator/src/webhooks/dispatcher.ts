/**
 * The dispatcher: sends due pending deliveries, one at a time in the order they were queued, records every
 * attempt, schedules retries on the emulator's clock and disables the endpoint after too many failures in a row.
 * The signing secret and URL are read at each attempt, so a rotation takes effect from the next attempt.
 */
import type { EmulatorContext } from "../http/types";
import { log } from "@/lib/log";
import type { App, WebhookAttempt, WebhookDelivery } from "../model";
import { applyReorder, DUPLICATE_ATTEMPT_NOTE, takeFault } from "./faults";
import { dropDelivery } from "./events";
import { consoleApp, gateDelivery } from "./policy";
import { DELIVERY_TIMEOUT_MS, DISABLE_AFTER_CONSECUTIVE_FAILURES, retryWaitSeconds } from "./retry";
import { deliveryHeaders } from "./signing";
import { postWebhook, type PostResult } from "./transport";

export type DispatchDeps = { fetch: typeof fetch; stopSignal: AbortSignal };

function isDue(delivery: WebhookDelivery, nowMs: number): boolean {
  return delivery.state === "pending" && (delivery.nextAttemptAt === null || Date.parse(delivery.nextAttemptAt) <= nowMs);
}

/** Attempts that count towards the five: the extra send of a duplicate fault does not. */
export function countedAttempts(delivery: WebhookDelivery): number {
  return delivery.attempts.filter((attempt) => !attempt.error?.startsWith(DUPLICATE_ATTEMPT_NOTE)).length;
}

export function appOfDelivery(ctx: EmulatorContext, delivery: WebhookDelivery): App | null {
  if (delivery.installId === null) return consoleApp(ctx);
  const install = ctx.state.installs.find((candidate) => candidate.id === delivery.installId);
  return install ? (ctx.state.apps.find((app) => app.id === install.appId) ?? null) : null;
}

/** 10 failures in a row: the endpoint stops, and everything still waiting for it is dead (never resent). */
export function disableEndpoint(ctx: EmulatorContext, app: App): void {
  app.webhook.disabled = true;
  for (const delivery of ctx.state.deliveries) {
    if (delivery.state !== "pending" || appOfDelivery(ctx, delivery)?.id !== app.id) continue;
    delivery.state = "dead";
    delivery.nextAttemptAt = null;
    delivery.droppedReason = `endpoint disabled after ${DISABLE_AFTER_CONSECUTIVE_FAILURES} consecutive failures`;
  }
  log.warn("emulator webhook endpoint disabled", { appId: app.id, failures: app.webhook.consecutiveFailures });
}

function toAttempt(at: string, result: PostResult, note?: string): WebhookAttempt {
  const error = note ? [note, result.error].filter(Boolean).join("; ") : result.error;
  return { at, status: result.status, error, durationMs: result.durationMs, responseSnippet: result.responseSnippet };
}

async function attemptDelivery(ctx: EmulatorContext, delivery: WebhookDelivery, app: App, deps: DispatchDeps): Promise<void> {
  const at = ctx.clock.now().toISOString();
  const headers = deliveryHeaders({
    event: delivery.event,
    body: delivery.body,
    secret: app.webhook.secret,
    timestamp: Math.floor(Date.now() / 1000),
    deliveryId: delivery.id,
    badSignature: takeFault(ctx, "bad-signature"),
  });
  const result = await postWebhook(deps.fetch, app.webhook.url, headers, delivery.body, DELIVERY_TIMEOUT_MS, deps.stopSignal);
  // Shutting down mid-request is not the receiver's fault: leave the delivery as it was.
  if (deps.stopSignal.aborted) return;
  delivery.attempts.push(toAttempt(at, result));
  if (takeFault(ctx, "duplicate")) {
    const again = await postWebhook(deps.fetch, app.webhook.url, headers, delivery.body, DELIVERY_TIMEOUT_MS, deps.stopSignal);
    delivery.attempts.push(toAttempt(ctx.clock.now().toISOString(), again, DUPLICATE_ATTEMPT_NOTE));
  }

  if (result.ok) {
    delivery.state = "succeeded";
    delivery.nextAttemptAt = null;
    app.webhook.consecutiveFailures = 0;
  } else {
    app.webhook.consecutiveFailures++;
    const wait = retryWaitSeconds(countedAttempts(delivery));
    if (wait === null) {
      delivery.state = "dead";
      delivery.nextAttemptAt = null;
    } else {
      // Measured from the end of the failed attempt: the waits are minimums.
      delivery.nextAttemptAt = new Date(ctx.clock.nowMs() + wait * 1000).toISOString();
    }
    if (app.webhook.consecutiveFailures >= DISABLE_AFTER_CONSECUTIVE_FAILURES && !app.webhook.disabled) {
      disableEndpoint(ctx, app);
    }
  }
  log.info("emulator webhook attempt", {
    deliveryId: delivery.id,
    event: delivery.event,
    status: result.status,
    error: result.error,
    state: delivery.state,
  });
  ctx.save();
}

/** The log keeps every pending delivery and the newest finished ones, so the saved state stays small. */
export const KEPT_FINISHED_DELIVERIES = 1000;

export function pruneDeliveries(ctx: EmulatorContext): void {
  const finished = ctx.state.deliveries.filter((delivery) => delivery.state !== "pending").length;
  let excess = finished - KEPT_FINISHED_DELIVERIES;
  if (excess <= 0) return;
  // Deliveries are appended in creation order, so the first finished ones are the oldest.
  ctx.state.deliveries = ctx.state.deliveries.filter((delivery) => delivery.state === "pending" || excess-- <= 0);
  ctx.save();
}

export async function runDispatcher(ctx: EmulatorContext, deps: DispatchDeps): Promise<void> {
  pruneDeliveries(ctx);
  const nowMs = ctx.clock.nowMs();
  const due = ctx.state.deliveries
    .filter((delivery) => isDue(delivery, nowMs))
    .sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));

  const sendable: { id: string; delivery: WebhookDelivery; app: App }[] = [];
  let changed = false;
  for (const delivery of due) {
    const gate = gateDelivery(ctx, delivery, nowMs);
    if (gate.action === "send") {
      sendable.push({ id: delivery.id, delivery, app: gate.app });
      continue;
    }
    changed = true;
    if (gate.action === "drop") dropDelivery(delivery, gate.reason);
    else {
      delivery.state = "dead";
      delivery.nextAttemptAt = null;
      delivery.droppedReason = "endpoint disabled";
    }
  }
  if (changed) ctx.save();

  for (const { delivery, app } of applyReorder(ctx, sendable, nowMs)) {
    if (deps.stopSignal.aborted) return;
    // An earlier attempt in this run may have disabled the endpoint and killed this one.
    if (delivery.state !== "pending") continue;
    await attemptDelivery(ctx, delivery, app, deps);
  }
}
