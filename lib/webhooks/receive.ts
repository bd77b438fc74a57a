import { DatabaseDeadlineError, type Db } from "@/db/client";
import { claimEvent } from "@/db/queries/webhook-events";
import { log as rootLogger, type Logger } from "@/lib/log";
import { observeDelivery } from "@/lib/observability/webhooks";
import { withSpan, withSpanSync } from "@/lib/observability/trace";
import { readLimitedBody, WEBHOOK_MAX_BODY_BYTES } from "./body";
import { parseEnvelope } from "./envelope";
import { applyEvent, applyOrderWebhook, applyOrderWebhookWithFollowUp, type FollowUp, type OrderWebhookEvent } from "./handlers";
import type { WebhookOutcome } from "./outcome";
import { checkSignatureHeaders, verifySignature } from "./signature";

/**
 * The webhook receiver without Next: the route hands it the Request, tests and the bench call it directly.
 * Order of checks: size, signature (on the raw bytes), envelope, then one transaction that claims the event id
 * and applies the effect (for order events, the hot path, a single statement). Nothing is stored before the
 * signature passes, and 2xx is answered only after commit: if the database fails, the platform's retry brings the
 * event back.
 *
 * A dead database must not hold deliveries open (the platform gives up on an answer after 10 s and counts it as a
 * failure, and held requests pile up): the database part has DATABASE_DEADLINE_MS, after which the answer is 503.
 * A statement cut off at the deadline either never ran or commits on its own; a redelivery of a committed one is
 * acknowledged as a duplicate, so nothing is lost or applied twice.
 */

export type ReceiveDeps = {
  db: Db;
  secret: string;
  now?: () => Date;
  maxBodyBytes?: number;
  /** How long the whole body may take to arrive (WEBHOOK_BODY_DEADLINE_MS unless a test says otherwise). */
  bodyDeadlineMs?: number;
  logger?: Logger;
  /** Per event name, work to send in the transaction that claims the event (lib/jobs/webhook-follow-ups.ts). */
  followUps?: Partial<Record<string, FollowUp>>;
};

export type WebhookDeliveryInput = {
  rawBody: Buffer;
  signature: string | null;
  timestamp: string | null;
  deliveryId: string | null;
  eventHeader: string | null;
};

export type { WebhookOutcome } from "./outcome";

const DELIVERY_ID = /^[A-Za-z0-9_.:-]{1,200}$/;

/**
 * Longest wait for the database before answering 503. A stopped server is noticed at once (refused connections
 * fail in milliseconds); this is the backstop for one that hangs. A healthy database answers in milliseconds, but
 * opening a pool's connections on a busy machine has been seen near a second, hence the margin.
 */
export const DATABASE_DEADLINE_MS = 1_500;

function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DatabaseDeadlineError(ms)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

function outcome(status: number, error: string): WebhookOutcome {
  return { status, body: { ok: false, error } };
}

/**
 * An order event in one statement, its follow-up too when that can be written as part of it (the shipped job
 * sends); otherwise claim, effect and follow-up in a transaction.
 */
async function applyOrder(db: Db, event: OrderWebhookEvent, context: { logger: Logger; deliveryId: string | null }, followUp: FollowUp | undefined) {
  const deadlineMs = DATABASE_DEADLINE_MS;
  if (!followUp) return applyOrderWebhook(db, event, { ...context, deadlineMs });
  // Building it reads the database only for the job engine's queue settings, and only the first time: bounded anyway.
  const statement = followUp.inStatement ? await withDeadline(followUp.inStatement(event), deadlineMs) : null;
  if (statement) return applyOrderWebhook(db, event, { ...context, deadlineMs, followUp: statement });
  return withDeadline(applyOrderWebhookWithFollowUp(db, event, context, followUp), deadlineMs);
}

export async function processWebhook(input: WebhookDeliveryInput, deps: ReceiveDeps): Promise<WebhookOutcome> {
  const deliveryId = input.deliveryId && DELIVERY_ID.test(input.deliveryId) ? input.deliveryId : null;
  // Log context is built only if a line is written: an accepted delivery writes none above debug.
  const logger = (deps.logger ?? rootLogger).with(() => ({ deliveryId: deliveryId ?? undefined }));

  const check = withSpanSync("webhook.signature", {}, () => verifySignature({
    rawBody: input.rawBody,
    header: input.signature,
    timestampHeader: input.timestamp,
    secret: deps.secret,
    now: (deps.now ?? (() => new Date()))(),
  }));
  if (!check.ok) {
    logger.warn("webhook refused: signature check failed", { reason: check.reason });
    return outcome(401, "invalid_signature");
  }

  let json: unknown;
  try {
    json = withSpanSync("webhook.parse", {}, () => JSON.parse(input.rawBody.toString("utf8")) as unknown);
  } catch {
    logger.warn("webhook refused: signed body is not JSON", { bytes: input.rawBody.length });
    return outcome(400, "invalid_json");
  }
  const parsed = withSpanSync("webhook.envelope", {}, () => parseEnvelope(json));
  if (!parsed.ok) {
    logger.warn("webhook refused: signed body is not a valid envelope", { problem: parsed.problem });
    return outcome(400, "invalid_envelope");
  }
  const event = parsed.event;
  const eventLogger = logger.with(() => ({ eventId: event.id, event: event.event, storeId: event.storeId }));
  // The header is not signed; the body is, so the body wins and a difference is only worth a log line.
  if (input.eventHeader && input.eventHeader !== event.event) {
    eventLogger.warn("X-SVC-Event header differs from the signed event name", { header: input.eventHeader.slice(0, 100) });
  }

  const followUp = deps.followUps?.[event.event];
  try {
    const result = await withSpan("webhook.transaction", { "webhook.event": event.event }, () =>
      event.kind === "order"
        ? applyOrder(deps.db, event, { logger: eventLogger, deliveryId }, followUp)
        : withDeadline(
            deps.db.transaction(async (tx) => {
              const claim = await claimEvent(tx, { id: event.id, event: event.event, storeId: event.storeId, deliveryId });
              if (claim.outcome === "duplicate") return { duplicate: true as const };
              const effect = await applyEvent(tx, event, { logger: eventLogger, installState: claim.installState });
              if (followUp) await followUp(tx, event);
              return { duplicate: false as const, effect };
            }),
            DATABASE_DEADLINE_MS,
          ));
    // Accepted deliveries are the normal case, one a second or a thousand: debug lines, not one line per event.
    if (result.duplicate) {
      eventLogger.debug("webhook duplicate acknowledged");
      return { status: 200, body: { ok: true, duplicate: true } };
    }
    eventLogger.debug("webhook applied", { effect: result.effect });
    return { status: 200, body: { ok: true, duplicate: false, effect: result.effect } };
  } catch (error) {
    // Not acknowledged, so the platform redelivers; the message names the failure, never a value from the row.
    eventLogger.error("webhook not applied: database failure, the platform will retry", {
      error: error instanceof Error ? error.message.slice(0, 300) : "unknown error",
    });
    return outcome(503, "temporarily_unavailable");
  }
}

export async function receiveWebhook(request: Request, deps: ReceiveDeps): Promise<Response> {
  const result = await receiveWebhookOutcome(request, deps);
  const headers: Record<string, string> = { "cache-control": "no-store" };
  if (result.close) headers.connection = "close";
  return Response.json(result.body, { status: result.status, headers });
}

export function receiveWebhookOutcome(request: Request, deps: ReceiveDeps): Promise<WebhookOutcome> {
  return observeDelivery(() => receiveUnobserved(request, deps));
}

async function receiveUnobserved(request: Request, deps: ReceiveDeps): Promise<WebhookOutcome> {
  if (request.method !== "POST") return outcome(405, "method_not_allowed");
  const logger = deps.logger ?? rootLogger;
  // Headers first: a request that could never verify is answered before a byte of its body is read.
  const headers = checkSignatureHeaders({
    header: request.headers.get("x-svc-signature"),
    timestampHeader: request.headers.get("x-svc-timestamp"),
    now: (deps.now ?? (() => new Date()))(),
  });
  if (!headers.ok) {
    logger.warn("webhook refused: signature headers failed", { reason: headers.reason });
    return outcome(401, "invalid_signature");
  }
  const limit = deps.maxBodyBytes ?? WEBHOOK_MAX_BODY_BYTES;
  const body = await readLimitedBody(request, limit, deps.bodyDeadlineMs);
  if (!body.ok) {
    logger.warn("webhook refused: body too large, too slow or malformed length", { reason: body.reason, limit });
    if (body.reason === "timeout") return { ...outcome(408, "body_timeout"), close: true };
    return body.reason === "too_large" ? outcome(413, "payload_too_large") : outcome(400, "bad_content_length");
  }
  return processWebhook(
    {
      rawBody: body.body,
      signature: request.headers.get("x-svc-signature"),
      timestamp: request.headers.get("x-svc-timestamp"),
      deliveryId: request.headers.get("x-svc-delivery"),
      eventHeader: request.headers.get("x-svc-event"),
    },
    deps,
  );
}
