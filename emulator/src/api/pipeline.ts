import { takeDeferredDelay } from "../faults";
import { createRouter } from "../http/router";
import type { EmuResponse, Handler, Route } from "../http/types";
import { installStateError } from "../rules";
import { runtime } from "../runtime";
import { analyticsOperations } from "./analytics";
import { categoryOperations } from "./categories";
import { isClosedToApps, scopeOnlyOperations } from "./closed";
import { customerOperations } from "./customers";
import { apiError, requestIdFrom } from "./envelope";
import { idempotency, needsIdempotencyKey } from "./idempotency";
import { orderOperations } from "./orders";
import { checkRestLimits } from "./rate-limit";
import type { Operation } from "./types";
import { whoamiOperations } from "./whoami";

const operations: Operation[] = [
  ...whoamiOperations,
  ...categoryOperations,
  ...orderOperations,
  ...customerOperations,
  ...analyticsOperations,
  ...scopeOnlyOperations,
];

const compiled = operations.map((operation) => ({
  operation,
  router: createRouter([{ method: operation.method, path: operation.path, handler: () => ({ status: 500 }) }]),
}));

function findOperation(method: string, pathname: string): { operation: Operation; params: Record<string, string> } | null {
  for (const { operation, router } of compiled) {
    const match = router.match(method, pathname);
    if (match) return { operation, params: match.params };
  }
  return null;
}

const MONTH = (date: Date) => date.toISOString().slice(0, 7);

/**
 * Every /v1 call, in this order: token (401), install limit then store limits (429), install state (403),
 * monthly quota (402), closed endpoints (403), unknown path (404), scope (403), idempotency, the operation.
 */
const answerApi = async (request: Parameters<Handler>[0], ctx: Parameters<Handler>[1], seen: { storeId: number | null }): Promise<EmuResponse> => {
  const requestId = requestIdFrom(request.headers);
  const header = request.headers.authorization;
  if (header === undefined || header === "") return apiError(401, "unauthorized", "Missing Authorization header", requestId);
  if (!/^Bearer /.test(header)) return apiError(401, "unauthorized", "Unsupported Authorization scheme", requestId);
  const token = header.slice("Bearer ".length).trim();
  const install = ctx.state.revokedTokens.includes(token)
    ? undefined
    : ctx.state.installs.find((candidate) => candidate.accessToken === token);
  const app = install && ctx.state.apps.find((candidate) => candidate.id === install.appId);
  const store = install && ctx.state.stores.find((candidate) => candidate.id === install.storeId);
  if (!install || !app || !store) return apiError(401, "unauthorized", "Invalid or revoked API key", requestId);
  seen.storeId = store.id;

  const refusal = checkRestLimits(ctx, install, store);
  if (refusal) return apiError(429, "rate_limited", refusal.message, requestId, { retryAfter: refusal.retryAfter });

  const blocked = installStateError(ctx.state, install, ctx.clock.now());
  if (blocked) return apiError(403, blocked.code, blocked.message, requestId);

  if (store.monthlyQuota !== null) {
    const usageKey = `${store.id}:${MONTH(ctx.clock.now())}`;
    const used = ctx.state.monthlyUsage[usageKey] ?? 0;
    if (used >= store.monthlyQuota) {
      return apiError(402, "quota_exceeded", "The store reached its monthly request quota", requestId);
    }
    ctx.state.monthlyUsage[usageKey] = used + 1;
    ctx.save();
  }

  const pathname = request.url.pathname.replace(/\/+$/, "") || "/";
  if (isClosedToApps(pathname)) return apiError(403, "forbidden", "Apps cannot use this endpoint", requestId);

  const found = findOperation(request.method, pathname);
  if (!found) return apiError(404, "not_found", `No such endpoint: ${request.method} ${pathname}`, requestId);
  const { operation, params } = found;
  if (operation.scope && !install.scopes.includes(operation.scope)) {
    return apiError(403, "forbidden", `Missing scope: ${operation.scope}`, requestId);
  }

  const call = { request, ctx, install, app, store, requestId, params };
  const run = (): EmuResponse => {
    try {
      return operation.handler(call);
    } catch {
      // Never leak the failure; 5xx answers are not stored, so a retry runs again.
      return apiError(500, "server_error", "Internal server error", requestId);
    }
  };
  const delay = takeDeferredDelay(request.raw);
  const wait = () => (delay > 0 ? new Promise((resolve) => setTimeout(resolve, delay)) : Promise.resolve());
  if (!needsIdempotencyKey(request.method)) {
    await wait();
    return run();
  }
  const outcome = idempotency(
    ctx,
    install,
    { method: request.method, pathname, body: request.body, key: request.headers["idempotency-key"] },
    requestId,
  );
  if (outcome.kind === "answer") return outcome.response;
  await wait();
  const response = run();
  outcome.store(response);
  return response;
};

/**
 * The platform's latency (the scale control's setting) is added to every answer, refusals included, and each call
 * is recorded with its store when recording is on (emulator/src/scale.ts).
 */
const handleApi: Handler = async (request, ctx) => {
  const startedAt = Date.now();
  const seen: { storeId: number | null } = { storeId: null };
  const response = await answerApi(request, ctx, seen);
  const { apiLatencyMs } = runtime(ctx);
  if (apiLatencyMs > 0) await new Promise((resolve) => setTimeout(resolve, apiLatencyMs));
  const calls = runtime(ctx).apiCalls;
  calls?.push({ storeId: seen.storeId, method: request.method, path: request.url.pathname, status: response.status, startedAt, endedAt: Date.now() });
  return response;
};

export const apiRoutes: Route[] = (["GET", "POST", "PATCH", "DELETE", "PUT"] as const).flatMap((method) => [
  { method, path: "/v1", handler: handleApi },
  { method, path: "/v1/*", handler: handleApi },
]);
