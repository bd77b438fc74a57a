/**
 * Control API for the webhook side, under /_emulator/webhooks/: what the console does, for scripts and tests.
 * Errors answer `{ error: <message> }` like the rest of the control API (plus `rule` for a refused URL).
 * The signing secret appears only in the rotate-secret answer (a developer must copy it), never in the log.
 */
import { json } from "../http/respond";
import type { EmuRequest, EmuResponse, EmulatorContext, Route } from "../http/types";
import type { WebhookDelivery } from "../model";
import { rotateSigningSecret, SecretShapeError, setWebhookUrl } from "../webhooks/endpoint";
import { addFault, clearFaults, FAULT_KINDS, faultSummary, isFaultKind, type FaultKind } from "../webhooks/faults";
import { consoleApp } from "../webhooks/policy";
import { queueSampleEvent } from "../webhooks/samples";

const PREFIX = "/_emulator/webhooks";
const MAX_FAULT_TIMES = 1000;

function readJson(request: EmuRequest): { ok: true; value: Record<string, unknown> } | { ok: false; response: EmuResponse } {
  if (request.body.length === 0) return { ok: true, value: {} };
  try {
    const value: unknown = JSON.parse(request.body.toString("utf8"));
    if (value && typeof value === "object" && !Array.isArray(value)) return { ok: true, value: value as Record<string, unknown> };
  } catch {
    // Answered below like any other non-object body.
  }
  return { ok: false, response: badRequest("body must be a JSON object") };
}

function badRequest(message: string): EmuResponse {
  return json(400, { error: message });
}

export function endpointView(ctx: EmulatorContext) {
  const app = consoleApp(ctx);
  if (!app) return null;
  const { url, verified, disabled, consecutiveFailures } = app.webhook;
  return { url, verified, disabled, consecutiveFailures, allowLocalhostWebhooks: ctx.config.allowLocalhostWebhooks };
}

export function deliveryView(delivery: WebhookDelivery) {
  return {
    id: delivery.id,
    eventId: delivery.eventId,
    event: delivery.event,
    installId: delivery.installId,
    storeId: delivery.storeId,
    state: delivery.state,
    droppedReason: delivery.droppedReason,
    createdAt: delivery.createdAt,
    nextAttemptAt: delivery.nextAttemptAt,
    attempts: delivery.attempts,
    body: delivery.body,
  };
}

function parseFaultList(value: unknown): { kind: FaultKind; times: number }[] | string {
  if (!Array.isArray(value) || value.length === 0) return "faults must be a non-empty array";
  const parsed: { kind: FaultKind; times: number }[] = [];
  for (const [index, item] of value.entries()) {
    const entry = item && typeof item === "object" ? (item as Record<string, unknown>) : {};
    if (!isFaultKind(entry.kind)) return `faults[${index}].kind must be one of ${FAULT_KINDS.join(", ")}`;
    const times = entry.times ?? 1;
    if (typeof times !== "number" || !Number.isInteger(times) || times < 1 || times > MAX_FAULT_TIMES) {
      return `faults[${index}].times must be an integer from 1 to ${MAX_FAULT_TIMES}`;
    }
    parsed.push({ kind: entry.kind, times });
  }
  return parsed;
}

export const webhookControlRoutes: Route[] = [
  {
    method: "POST",
    path: `${PREFIX}/verify`,
    handler: async (_request, ctx) => {
      const result = await ctx.webhooks.verify();
      return json(200, { ...result, endpoint: endpointView(ctx) });
    },
  },
  {
    method: "POST",
    path: `${PREFIX}/rotate-secret`,
    handler: (request, ctx) => {
      const body = readJson(request);
      if (!body.ok) return body.response;
      const chosen = body.value.secret;
      if (chosen !== undefined && typeof chosen !== "string") return badRequest("secret must be a string");
      try {
        return json(200, { secret: rotateSigningSecret(ctx, chosen) });
      } catch (error) {
        if (error instanceof SecretShapeError) return json(422, { error: error.message });
        throw error;
      }
    },
  },
  {
    method: "POST",
    path: `${PREFIX}/url`,
    handler: (request, ctx) => {
      const body = readJson(request);
      if (!body.ok) return body.response;
      if (typeof body.value.url !== "string") return badRequest("url must be a string");
      const check = setWebhookUrl(ctx, body.value.url);
      if (!check.ok) return json(422, { error: check.message, rule: check.rule });
      return json(200, { endpoint: endpointView(ctx) });
    },
  },
  {
    method: "GET",
    path: `${PREFIX}/deliveries`,
    handler: (request, ctx) => {
      const limitParam = Number(request.url.searchParams.get("limit") ?? 100);
      const limit = Number.isInteger(limitParam) && limitParam > 0 ? Math.min(limitParam, 1000) : 100;
      const event = request.url.searchParams.get("event");
      const state = request.url.searchParams.get("state");
      const deliveries = ctx.state.deliveries
        .filter((delivery) => (!event || delivery.event === event) && (!state || delivery.state === state))
        .slice(-limit)
        .reverse()
        .map(deliveryView);
      return json(200, { endpoint: endpointView(ctx), faults: faultSummary(ctx), deliveries });
    },
  },
  {
    method: "GET",
    path: `${PREFIX}/faults`,
    handler: (_request, ctx) => json(200, faultSummary(ctx)),
  },
  {
    method: "POST",
    path: `${PREFIX}/faults`,
    handler: (request, ctx) => {
      const body = readJson(request);
      if (!body.ok) return body.response;
      const faults = parseFaultList(body.value.faults);
      if (typeof faults === "string") return json(422, { error: faults });
      for (const fault of faults) addFault(ctx, fault.kind, fault.times);
      return json(200, faultSummary(ctx));
    },
  },
  {
    method: "DELETE",
    path: `${PREFIX}/faults`,
    handler: (_request, ctx) => {
      clearFaults(ctx);
      return json(200, faultSummary(ctx));
    },
  },
  {
    method: "POST",
    path: `${PREFIX}/send`,
    handler: (request, ctx) => {
      const body = readJson(request);
      if (!body.ok) return body.response;
      const { event, storeId } = body.value;
      if (typeof event !== "string") return badRequest("event must be a string");
      if (typeof storeId !== "number" || !Number.isInteger(storeId)) return badRequest("storeId must be an integer");
      const result = queueSampleEvent(ctx, event, storeId);
      if (!result.ok) return json(result.status, { error: result.message });
      return json(202, { delivery: deliveryView(result.delivery) });
    },
  },
];
