import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { createClock } from "../src/clock";
import { DEV_APP } from "@/lib/dev-app";
import { api, exchange, newKey, startTestEmulator, tokenFields, obtainCode, startEmulatorForFile } from "./support";

const emu = startEmulatorForFile();
beforeEach(() => emu.control.reset());

async function control(method: string, route: string, body?: unknown) {
  const response = await fetch(`${emu.url}/_emulator/${route}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: response.status, json: (await response.json()) as any };
}

describe("fixtures", () => {
  it("hold the documented merchants, stores, plans, team membership and app", () => {
    const state = emu.ctx.state;
    expect(state.merchants.map((merchant) => merchant.name)).toEqual(["Amina Haddad", "Karim Belkacem", "Dev Studio"]);
    const stores = Object.fromEntries(state.stores.map((store) => [store.id, store]));
    expect(Object.keys(stores).map(Number)).toEqual([101, 102, 103, 104, 201, 301]);
    expect(stores[104]!.plan).toBe("free");
    expect(stores[201]!.ownerMerchantId).toBe(2);
    expect(stores[201]!.teamMerchantIds).toEqual([1]);
    const app = state.apps[0]!;
    expect(app).toMatchObject({ clientId: DEV_APP.clientId, clientSecret: DEV_APP.clientSecret, status: "approved", minimumPlan: "basic" });
    expect(app.redirectUris).toEqual([`${DEV_APP.appUrl}/oauth/callback`]);
    expect(app.webhook).toMatchObject({ url: `${DEV_APP.appUrl}/api/webhooks`, secret: DEV_APP.webhookSecret, verified: true });
    for (const id of [101, 102, 103]) {
      expect(state.orders.filter((order) => order.store_id === id)).toHaveLength(40);
      const categories = state.categories.filter((category) => category.storeId === id);
      expect(categories.filter((category) => category.parentId === null).length).toBeGreaterThanOrEqual(6);
      expect(categories.some((category) => category.parentId !== null)).toBe(true);
      expect(state.customers.some((customer) => customer.storeId === id)).toBe(true);
    }
  });
});

describe("control API", () => {
  it("GET state summarises without any token or secret", async () => {
    emu.control.mintInstall(101);
    const { status, json } = await control("GET", "state");
    expect(status).toBe(200);
    expect(json.stores.find((store: { id: number }) => store.id === 104).plan).toBe("free");
    expect(json.app).toMatchObject({ status: "approved", clientId: DEV_APP.clientId, webhook: { verified: true } });
    expect(json.installs).toHaveLength(1);
    const text = JSON.stringify(json);
    expect(text).not.toContain("svcpk_live_");
    expect(text).not.toContain(DEV_APP.clientSecret);
    expect(text).not.toContain(DEV_APP.webhookSecret);
  });

  it("POST installs mints a working token; refuses stores that cannot take the app", async () => {
    const minted = await control("POST", "installs", { storeId: 102, scopes: ["orders:read"] });
    expect(minted.status).toBe(200);
    expect((await api(emu, minted.json.accessToken, "GET", "/v1/whoami")).json.data.app.install_id).toBe(minted.json.installId);
    expect((await control("POST", "installs", { storeId: 104 })).status).toBe(409);
    expect((await control("POST", "installs", { storeId: 101, scopes: ["ai:generate"] })).status).toBe(422);
    expect((await control("POST", "installs", { storeId: 999 })).status).toBe(404);
    expect((await control("POST", "installs", {})).status).toBe(400);
  });

  it("mintInstall keeps the install id and revokes the previous token", async () => {
    const first = emu.control.mintInstall(101);
    const second = emu.control.mintInstall(101);
    expect(second.installId).toBe(first.installId);
    expect((await api(emu, first.accessToken, "GET", "/v1/whoami")).status).toBe(401);
  });

  it("POST stores/:id/uninstall revokes the token and drops the install's pending deliveries", async () => {
    const minted = emu.control.mintInstall(101);
    emu.ctx.state.deliveries.push({
      id: "dlv_test", eventId: "evt_test", event: "order.created", installId: minted.installId, storeId: 101, body: "{}",
      state: "pending", attempts: [], nextAttemptAt: emu.ctx.clock.now().toISOString(), createdAt: emu.ctx.clock.now().toISOString(), droppedReason: null,
    });
    const result = await control("POST", "stores/101/uninstall");
    expect(result.status).toBe(200);
    expect(result.json).toMatchObject({ id: minted.installId, active: false });
    expect(result.json.uninstalledAt).toBe(emu.ctx.state.installs[0]!.uninstalledAt);
    expect(emu.ctx.state.deliveries.find((delivery) => delivery.id === "dlv_test")!.state).toBe("dropped");
    expect((await api(emu, minted.accessToken, "GET", "/v1/whoami")).status).toBe(401);
    expect((await control("POST", "stores/101/uninstall")).status).toBe(404);
  });

  it("installing again after an uninstall keeps the install id", async () => {
    const first = emu.control.mintInstall(101);
    emu.control.uninstall(101);
    const { code, verifier } = await obtainCode(emu, 1, [101]);
    const again = await exchange(emu, tokenFields(code, verifier));
    expect(again.json.install_id).toBe(first.installId);
    expect((await api(emu, again.json.access_token, "GET", "/v1/whoami")).status).toBe(200);
  });

  it("POST orders places a pending order stamped with the clock; POST orders/:id/status changes it", async () => {
    emu.control.advanceClock(3600);
    const placed = await control("POST", "orders", { storeId: 102, customer_name: "Test Client" });
    expect(placed.status).toBe(200);
    expect(placed.json).toMatchObject({ store_id: 102, status: "pending", customer_name: "Test Client" });
    expect(placed.json.created_at).toBe(placed.json.updated_at);
    expect(Math.abs(Date.parse(placed.json.created_at) - emu.ctx.clock.nowMs())).toBeLessThan(5_000);
    emu.control.advanceClock(60);
    const shipped = await control("POST", `orders/${placed.json.id}/status`, { status: "shipped" });
    expect(shipped.json.status).toBe("shipped");
    expect(shipped.json.tracking_number).toMatch(/^TRK\d{10}$/);
    expect(Date.parse(shipped.json.updated_at)).toBeGreaterThan(Date.parse(placed.json.updated_at));
    expect((await control("POST", `orders/${placed.json.id}/status`, { status: "lost" })).status).toBe(422);
    expect((await control("POST", "orders/1/status", { status: "shipped" })).status).toBe(404);
  });

  it("POST app/status and stores/:id/plan change what the API answers", async () => {
    const token = emu.control.mintInstall(101).accessToken;
    expect((await control("POST", "app/status", { status: "suspended" })).json.status).toBe("suspended");
    expect((await api(emu, token, "GET", "/v1/whoami")).json.error.code).toBe("app_suspended");
    await control("POST", "app/status", { status: "approved" });
    expect((await control("POST", "stores/101/plan", { plan: "free" })).json.plan).toBe("free");
    expect((await api(emu, token, "GET", "/v1/whoami")).json.error.code).toBe("app_plan_required");
    expect((await control("POST", "stores/101/plan", { plan: "gold" })).status).toBe(422);
    expect((await control("POST", "app/status", { status: "gone" })).status).toBe(422);
  });

  it("POST clock/advance moves the clock; GET clock reads it; POST tick runs the engine", async () => {
    const before = (await control("GET", "clock")).json;
    const advanced = await control("POST", "clock/advance", { seconds: 7200 });
    expect(Date.parse(advanced.json.now) - Date.parse(before.now)).toBeGreaterThanOrEqual(7_200_000);
    expect((await control("GET", "clock")).json.offsetMs).toBe(before.offsetMs + 7_200_000);
    expect((await control("POST", "tick")).status).toBe(200);
    expect((await control("POST", "clock/advance", { seconds: -5 })).status).toBe(422);
  });

  it("POST reset restores the fixtures", async () => {
    emu.control.mintInstall(101);
    emu.control.placeOrder(101);
    emu.control.setAppStatus("draft");
    expect((await control("POST", "reset")).status).toBe(200);
    expect(emu.ctx.state.installs).toHaveLength(0);
    expect(emu.ctx.state.orders.filter((order) => order.store_id === 101)).toHaveLength(40);
    expect(emu.ctx.state.apps[0]!.status).toBe("approved");
  });

  it("answers 400 for a body that is not JSON", async () => {
    const response = await fetch(`${emu.url}/_emulator/orders`, { method: "POST", body: "{nope" });
    expect(response.status).toBe(400);
  });
});

describe("faults", () => {
  let token: string;
  beforeEach(() => {
    token = emu.control.mintInstall(101).accessToken;
  });

  it("status faults answer the next matching calls, `times` times", async () => {
    expect((await control("POST", "faults", { faults: [{ kind: "status", status: 503, times: 2 }] })).json.queued).toBe(1);
    const first = await api(emu, token, "GET", "/v1/whoami");
    expect(first.status).toBe(503);
    expect(first.json.error.code).toBe("server_error");
    expect((await api(emu, token, "GET", "/v1/whoami")).status).toBe(503);
    expect((await api(emu, token, "GET", "/v1/whoami")).status).toBe(200);
  });

  it("a 429 fault carries rate_limited and Retry-After; a 502 is the gateway's key lookup failure", async () => {
    emu.control.addFaults([{ kind: "status", status: 429, retryAfter: 7 }, { kind: "status", status: 502 }]);
    const limited = await api(emu, token, "GET", "/v1/whoami");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("7");
    expect(limited.json.error).toMatchObject({ code: "rate_limited", retry_after: 7 });
    const gateway = await api(emu, token, "GET", "/v1/whoami");
    expect(gateway.status).toBe(502);
    expect(gateway.json.error.code).toBe("server_error");
  });

  it("filters by method and path prefix, and never touches other paths", async () => {
    emu.control.addFaults([{ kind: "status", status: 500, method: "POST", pathPrefix: "/v1/categories" }]);
    expect((await api(emu, token, "GET", "/v1/categories")).status).toBe(200);
    expect((await fetch(`${emu.url}/_emulator/state`)).status).toBe(200);
    expect((await api(emu, token, "POST", "/v1/categories", { key: newKey(), body: { name: "A" } })).status).toBe(500);
  });

  it("applies to the token endpoint", async () => {
    emu.control.addFaults([{ kind: "status", status: 500, pathPrefix: "/oauth/apps/token" }]);
    const { code, verifier } = await obtainCode(emu, 1, [102]);
    const failed = await exchange(emu, tokenFields(code, verifier));
    expect(failed.status).toBe(500);
    expect(failed.json.error).toBe("server_error");
    // The fault answered before the code was claimed, so the same code still works.
    expect((await exchange(emu, tokenFields(code, verifier))).status).toBe(200);
  });

  it("drop closes the connection without running the call", async () => {
    emu.control.addFaults([{ kind: "drop" }]);
    const before = emu.ctx.state.categories.length;
    await expect(api(emu, token, "POST", "/v1/categories", { key: newKey(), body: { name: "Lost" } })).rejects.toThrow();
    expect(emu.ctx.state.categories.length).toBe(before);
  });

  it("commit-then-drop runs the call, then loses the answer", async () => {
    emu.control.addFaults([{ kind: "commit-then-drop" }]);
    const key = newKey();
    await expect(api(emu, token, "POST", "/v1/categories", { key, body: { name: "Committed" } })).rejects.toThrow();
    expect(emu.ctx.state.categories.filter((category) => category.name === "Committed")).toHaveLength(1);
    const retried = await api(emu, token, "POST", "/v1/categories", { key, body: { name: "Committed" } });
    expect(retried.headers.get("idempotency-replay")).toBe("1");
  });

  it("slow still answers", async () => {
    emu.control.addFaults([{ kind: "slow", delayMs: 50 }]);
    expect((await api(emu, token, "GET", "/v1/whoami")).status).toBe(200);
  });

  it("DELETE faults clears the queue; bad faults give 400", async () => {
    emu.control.addFaults([{ kind: "status", status: 500, times: 5 }]);
    expect((await control("DELETE", "faults")).status).toBe(200);
    expect((await api(emu, token, "GET", "/v1/whoami")).status).toBe(200);
    for (const faults of [[], [{ kind: "status", status: 418 }], [{ kind: "explode" }], [{ kind: "drop", times: 0 }], "x"]) {
      expect((await control("POST", "faults", { faults })).status).toBe(400);
    }
  });
});

describe("persistence and time", () => {
  it("state survives a restart through the data file, written atomically, and the clock never goes back", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "emulator-state-"));
    const dataFile = path.join(dir, "nested", "state.json");
    try {
      const first = await startTestEmulator({ dataFile });
      const minted = first.control.mintInstall(101);
      first.control.advanceClock(86_400);
      const clockBefore = first.ctx.clock.nowMs();
      await first.close();
      expect(existsSync(dataFile)).toBe(true);
      expect(readdirSync(path.dirname(dataFile))).toEqual(["state.json"]);
      const second = await startTestEmulator({ dataFile });
      try {
        expect((await api(second, minted.accessToken, "GET", "/v1/whoami")).status).toBe(200);
        expect(second.ctx.clock.nowMs()).toBeGreaterThanOrEqual(clockBefore);
        second.control.reset();
        expect(second.ctx.state.installs).toHaveLength(0);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a time scale makes emulated time run faster than real time", () => {
    let real = 1_000_000;
    const clock = createClock({ timeScale: 12, offsetMs: 0, realNow: () => real });
    const start = clock.nowMs();
    real += 5_000;
    expect(clock.nowMs() - start).toBe(60_000);
  });

  it("auto tick runs the engine once per emulated minute", async () => {
    const fast = await startTestEmulator({ autoTick: true, timeScale: 1200 });
    try {
      let ticks = 0;
      fast.ctx.webhooks = { ...fast.ctx.webhooks, tick: async () => void (ticks += 1) };
      await vi.waitFor(() => expect(ticks).toBeGreaterThanOrEqual(2), { timeout: 5_000, interval: 20 });
    } finally {
      await fast.close();
    }
  });
});

describe("store settings and orders", () => {
  it("sets a monthly quota and revenue visibility, refuses bad values, and lists a store's orders as stored", async () => {
    const set = await control("POST", "stores/101/settings", { monthlyQuota: 5, analyticsRevenueVisible: true });
    expect(set.json).toEqual({ id: 101, monthlyQuota: 5, analyticsRevenueVisible: true });
    expect(emu.ctx.state.stores.find((store) => store.id === 101)!.monthlyQuota).toBe(5);
    expect((await control("POST", "stores/101/settings", { monthlyQuota: -1 })).status).toBe(422);
    expect((await control("POST", "stores/101/settings", { analyticsRevenueVisible: "yes" })).status).toBe(422);
    expect((await control("POST", "stores/999/settings", {})).status).toBe(404);
    const listed = await control("GET", "stores/102/orders");
    expect(listed.json.orders).toHaveLength(40);
    expect(listed.json.orders.every((order: { store_id: number }) => order.store_id === 102)).toBe(true);
  });
});
