import { ActionError } from "../actions";
import { FaultInputError } from "../faults";
import { json } from "../http/respond";
import type { EmuRequest, EmuResponse, EmulatorContext, Route } from "../http/types";
import type { AppStatus, OrderStatus, Plan } from "../model";
import type { StoreSettings } from "../actions";
import { createControl, publicInstall } from "./control";

/** The JSON control API under /_emulator/: the CLI and tests drive the emulator through it. */
type Body = Record<string, unknown>;

function readJson(request: EmuRequest): Body {
  const text = request.body.toString("utf8").trim();
  if (!text) return {};
  const value = JSON.parse(text) as unknown;
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new ActionError(400, "The body must be a JSON object");
  return value as Body;
}

function numberParam(request: EmuRequest, name: string): number {
  const value = request.params[name] ?? "";
  if (!/^[0-9]+$/.test(value)) throw new ActionError(400, `${name} must be a number`);
  return Number(value);
}

function requireNumber(body: Body, field: string): number {
  const value = body[field];
  if (typeof value !== "number" || !Number.isFinite(value)) throw new ActionError(400, `${field} must be a number`);
  return value;
}

function requireString(body: Body, field: string): string {
  const value = body[field];
  if (typeof value !== "string") throw new ActionError(400, `${field} must be a string`);
  return value;
}

/** Wraps an action: JSON in, JSON out, ActionError and bad JSON become their status with `{ error }`. */
function route(method: Route["method"], path: string, run: (request: EmuRequest, ctx: EmulatorContext, body: Body) => unknown): Route {
  return {
    method,
    path: `/_emulator/${path}`,
    async handler(request, ctx): Promise<EmuResponse> {
      try {
        const body = method === "GET" || method === "DELETE" ? {} : readJson(request);
        const result = await run(request, ctx, body);
        return json(200, result ?? { ok: true }, { "cache-control": "no-store" });
      } catch (error) {
        if (error instanceof ActionError) return json(error.status, { error: error.message });
        if (error instanceof FaultInputError) return json(400, { error: error.message });
        if (error instanceof SyntaxError) return json(400, { error: "The body is not valid JSON" });
        throw error;
      }
    },
  };
}

export const controlRoutes: Route[] = [
  route("POST", "reset", (_request, ctx) => {
    createControl(ctx).reset();
    return { ok: true };
  }),
  route("GET", "state", (_request, ctx) => createControl(ctx).state()),
  route("POST", "installs", (_request, ctx, body) => {
    const scopes = body.scopes;
    if (scopes !== undefined && (!Array.isArray(scopes) || scopes.some((scope) => typeof scope !== "string"))) {
      throw new ActionError(400, "scopes must be an array of strings");
    }
    return createControl(ctx).mintInstall(requireNumber(body, "storeId"), scopes as string[] | undefined);
  }),
  route("POST", "stores/:id/uninstall", (request, ctx) => publicInstall(createControl(ctx).uninstall(numberParam(request, "id")))),
  route("POST", "orders", (_request, ctx, body) => {
    const { storeId: _storeId, ...overrides } = body;
    return createControl(ctx).placeOrder(requireNumber(body, "storeId"), overrides);
  }),
  route("POST", "orders/:id/status", (request, ctx, body) =>
    createControl(ctx).setOrderStatus(numberParam(request, "id"), requireString(body, "status") as OrderStatus),
  ),
  route("POST", "app/status", (_request, ctx, body) => {
    createControl(ctx).setAppStatus(requireString(body, "status") as AppStatus);
    return createControl(ctx).state().app;
  }),
  route("POST", "app/withheld-scopes", (_request, ctx, body) => {
    const scopes = body.scopes;
    if (!Array.isArray(scopes) || scopes.some((scope) => typeof scope !== "string")) throw new ActionError(400, "scopes must be an array of strings");
    return { withheldScopes: createControl(ctx).setWithheldScopes(scopes as string[]) };
  }),
  route("POST", "stores/:id/plan", (request, ctx, body) => {
    const expires = body.planExpiresAt;
    if (expires !== undefined && expires !== null && typeof expires !== "string") {
      throw new ActionError(400, "planExpiresAt must be an ISO date string or null");
    }
    const store = createControl(ctx).setStorePlan(numberParam(request, "id"), requireString(body, "plan") as Plan, expires as string | null | undefined);
    return { id: store.id, plan: store.plan, planExpiresAt: store.planExpiresAt };
  }),
  route("POST", "stores/:id/settings", (request, ctx, body) => {
    const settings: StoreSettings = {};
    if ("monthlyQuota" in body) settings.monthlyQuota = body.monthlyQuota as number | null;
    if ("analyticsRevenueVisible" in body) settings.analyticsRevenueVisible = body.analyticsRevenueVisible as boolean;
    const store = createControl(ctx).setStoreSettings(numberParam(request, "id"), settings);
    return { id: store.id, monthlyQuota: store.monthlyQuota, analyticsRevenueVisible: store.analyticsRevenueVisible === true };
  }),
  route("GET", "stores/:id/orders", (request, ctx) => ({ orders: createControl(ctx).storeOrders(numberParam(request, "id")) })),
  route("GET", "stores/:id/customers", (request, ctx) => ({ customers: createControl(ctx).storeCustomers(numberParam(request, "id")) })),
  route("POST", "clock/advance", (_request, ctx, body) => {
    const now = createControl(ctx).advanceClock(requireNumber(body, "seconds"));
    return { now: now.toISOString() };
  }),
  route("GET", "clock", (_request, ctx) => createControl(ctx).clock()),
  route("POST", "tick", async (_request, ctx) => {
    await createControl(ctx).tick();
    return { ok: true, now: ctx.clock.now().toISOString() };
  }),
  route("POST", "faults", (_request, ctx, body) => ({ queued: createControl(ctx).addFaults(body.faults as unknown[]) })),
  // Scale tests (emulator/src/scale.ts): many installed stores at once, the platform's latency, a record of calls.
  route("POST", "stores/mint", (_request, ctx, body) => ({
    stores: createControl(ctx).mintStores({ count: requireNumber(body, "count"), ordersPerStore: "ordersPerStore" in body ? requireNumber(body, "ordersPerStore") : 0 }),
  })),
  route("GET", "api/settings", (_request, ctx) => createControl(ctx).apiSettings()),
  route("POST", "api/settings", (_request, ctx, body) => {
    const settings: { latencyMs?: number; recordCalls?: boolean } = {};
    if ("latencyMs" in body) settings.latencyMs = requireNumber(body, "latencyMs");
    if ("recordCalls" in body) {
      if (typeof body.recordCalls !== "boolean") throw new ActionError(400, "recordCalls must be a boolean");
      settings.recordCalls = body.recordCalls;
    }
    return createControl(ctx).setApiSettings(settings);
  }),
  route("GET", "api/calls", (request, ctx) => ({ calls: createControl(ctx).apiCalls({ clear: request.url.searchParams.get("clear") === "1" }) })),
  route("DELETE", "faults", (_request, ctx) => {
    createControl(ctx).clearFaults();
    return { ok: true };
  }),
];
