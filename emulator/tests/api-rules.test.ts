import { beforeEach, describe, expect, it } from "vitest";
import { api, newKey, resetWithInstall, startEmulatorForFile } from "./support";

const emu = startEmulatorForFile();
let token: string;
beforeEach(() => {
  token = resetWithInstall(emu, 101);
});

/** Puts the clock at the start of a minute, so a fixed window does not roll over mid-test. */
function alignToMinute(): void {
  const now = emu.ctx.clock.nowMs();
  emu.control.advanceClock((60_000 - (now % 60_000)) / 1000 + 0.001);
}

describe("envelopes and request ids", () => {
  it("wraps success in { data, meta } and errors in { error, meta }, with X-Request-Id equal to meta.request_id", async () => {
    const ok = await api(emu, token, "GET", "/v1/whoami");
    expect(Object.keys(ok.json).sort()).toEqual(["data", "meta"]);
    expect(ok.json.meta.api_version).toBe("v1");
    expect(ok.headers.get("x-request-id")).toBe(ok.json.meta.request_id);
    const failed = await api(emu, token, "GET", "/v1/categories/abc");
    expect(Object.keys(failed.json).sort()).toEqual(["error", "meta"]);
    expect(failed.headers.get("x-request-id")).toBe(failed.json.meta.request_id);
  });

  it("echoes a request id the client sent", async () => {
    const ok = await api(emu, token, "GET", "/v1/whoami", { headers: { "x-request-id": "my-trace-42" } });
    expect(ok.headers.get("x-request-id")).toBe("my-trace-42");
    expect(ok.json.meta.request_id).toBe("my-trace-42");
  });
});

describe("authentication", () => {
  it.each([
    ["no header", undefined, "Missing Authorization header"],
    ["Basic scheme", "Basic abc", "Unsupported Authorization scheme"],
    ["lower-case bearer", "bearer svcpk_live_x", "Unsupported Authorization scheme"],
    ["unknown token", "Bearer svcpk_live_000", "Invalid or revoked API key"],
  ])("%s: 401 unauthorized '%s'", async (_name, header, message) => {
    const result = await api(emu, null, "GET", "/v1/whoami", { headers: header ? { authorization: header } : {} });
    expect(result.status).toBe(401);
    expect(result.json.error).toEqual({ code: "unauthorized", message });
    expect(result.headers.get("x-request-id")).toBeTruthy();
  });

  it("a token revoked by uninstall answers 401", async () => {
    emu.control.uninstall(101);
    const result = await api(emu, token, "GET", "/v1/whoami");
    expect(result.status).toBe(401);
    expect(result.json.error.message).toBe("Invalid or revoked API key");
  });
});

describe("whoami", () => {
  it("describes the install token", async () => {
    const minted = emu.control.mintInstall(102, ["orders:read"]);
    const result = await api(emu, minted.accessToken, "GET", "/v1/whoami");
    expect(result.status).toBe(200);
    const install = emu.ctx.state.installs.find((candidate) => candidate.id === minted.installId)!;
    expect(result.json.data).toEqual({
      key_id: install.keyId,
      store_id: 102,
      type: "platform",
      rate_limit_tier: "enterprise",
      pilot: false,
      scopes: ["orders:read"],
      app: { app_id: 1, client_id: emu.ctx.state.apps[0]!.clientId, install_id: minted.installId },
    });
  });
});

describe("scopes and closed endpoints", () => {
  it.each([
    ["GET", "/v1/categories", "products:read"],
    ["POST", "/v1/categories", "products:write"],
    ["GET", "/v1/customers", "customers:read"],
    ["GET", "/v1/analytics", "analytics:read"],
  ])("%s %s without its scope: 403 'Missing scope: %s'", async (method, path, scope) => {
    const limited = emu.control.mintInstall(102, ["orders:read"]).accessToken;
    const result = await api(emu, limited, method, path, { key: newKey(), body: { name: "x" } });
    expect(result.status).toBe(403);
    expect(result.json.error).toEqual({ code: "forbidden", message: `Missing scope: ${scope}` });
  });

  it("ai:generate can never be held by an app", async () => {
    const result = await api(emu, token, "POST", "/v1/landing-pages/generate", { key: newKey(), body: {} });
    expect(result.status).toBe(403);
    expect(result.json.error).toEqual({ code: "forbidden", message: "Missing scope: ai:generate" });
  });

  it.each([
    ["GET", "/v1/keys"],
    ["DELETE", "/v1/keys/key_123"],
    ["GET", "/v1/webhooks"],
    ["POST", "/v1/webhooks/5/test"],
    ["GET", "/v1/changes"],
    ["POST", "/v1/changes/12/undo"],
  ])("%s %s: 403 'Apps cannot use this endpoint' whatever the scopes", async (method, path) => {
    const result = await api(emu, token, method, path, { key: newKey(), body: {} });
    expect(result.status).toBe(403);
    expect(result.json.error).toEqual({ code: "forbidden", message: "Apps cannot use this endpoint" });
  });

  it("an unknown path answers 404 not_found", async () => {
    const result = await api(emu, token, "GET", "/v1/nothing-here");
    expect(result.status).toBe(404);
    expect(result.json.error.code).toBe("not_found");
  });
});

describe("install state", () => {
  it.each([
    ["app_uninstalled", () => (emu.ctx.state.installs.find((install) => install.storeId === 101)!.active = false)],
    ["app_suspended", () => emu.control.setAppStatus("suspended")],
    ["app_suspended", () => emu.control.setAppStatus("rejected")],
    ["app_not_approved", () => emu.control.setAppStatus("draft")],
    ["app_not_approved", () => emu.control.setAppStatus("in_review")],
    ["app_plan_required", () => emu.control.setStorePlan(101, "free")],
    ["app_plan_required", () => emu.control.setStorePlan(101, "pro", "2001-01-01T00:00:00Z")],
  ])("%s", async (code, prepare) => {
    prepare();
    const result = await api(emu, token, "GET", "/v1/whoami");
    expect(result.status).toBe(403);
    expect(result.json.error.code).toBe(code);
  });

  it("an unapproved app still works on its developer's store", async () => {
    const devToken = emu.control.mintInstall(301).accessToken;
    emu.control.setAppStatus("draft");
    expect((await api(emu, devToken, "GET", "/v1/whoami")).status).toBe(200);
  });

  it("calls work again when the suspension is lifted, and a future plan expiry is fine", async () => {
    emu.control.setAppStatus("suspended");
    expect((await api(emu, token, "GET", "/v1/whoami")).status).toBe(403);
    emu.control.setAppStatus("approved");
    emu.control.setStorePlan(101, "basic", "2999-01-01T00:00:00Z");
    expect((await api(emu, token, "GET", "/v1/whoami")).status).toBe(200);
  });

  it("a store's monthly quota answers 402 quota_exceeded once reached", async () => {
    emu.ctx.state.stores.find((store) => store.id === 101)!.monthlyQuota = 2;
    expect((await api(emu, token, "GET", "/v1/whoami")).status).toBe(200);
    expect((await api(emu, token, "GET", "/v1/whoami")).status).toBe(200);
    const refused = await api(emu, token, "GET", "/v1/whoami");
    expect(refused.status).toBe(402);
    expect(refused.json.error.code).toBe("quota_exceeded");
  });
});

describe("rate limits", () => {
  it("120 calls per install per clock minute, failed calls included; 429 rate_limited with Retry-After = retry_after", async () => {
    alignToMinute();
    for (let index = 0; index < 120; index += 1) {
      expect((await api(emu, token, "GET", "/v1/categories/0")).status).toBe(400);
    }
    const refused = await api(emu, token, "GET", "/v1/whoami");
    expect(refused.status).toBe(429);
    expect(refused.json.error.code).toBe("rate_limited");
    expect(refused.headers.get("retry-after")).toBe(String(refused.json.error.retry_after));
    expect(refused.json.error.retry_after).toBeGreaterThan(0);
    expect(refused.json.error.retry_after).toBeLessThanOrEqual(60);
    emu.control.advanceClock(60);
    expect((await api(emu, token, "GET", "/v1/whoami")).status).toBe(200);
  });

  it("refused calls count too: the window stays full until the next minute", async () => {
    alignToMinute();
    for (let index = 0; index < 125; index += 1) await api(emu, token, "GET", "/v1/whoami");
    expect(emu.ctx.clock.nowMs() % 60_000).toBeLessThan(59_000);
    const bucket = [...(await import("../src/runtime")).runtime(emu.ctx).minuteWindows.entries()].find(([key]) => key.startsWith("install:"));
    expect(bucket?.[1].count).toBe(125);
  });

  it("the store budget is shared by every key on the store", async () => {
    alignToMinute();
    const state = emu.ctx.state;
    state.stores.find((store) => store.id === 101)!.rateLimitPerMinute = 5;
    state.apps.push({ ...state.apps[0]!, id: 2, clientId: "svcapp_00000000000000000002", scopes: ["orders:read"] });
    state.installs.push({ ...state.installs[0]!, id: 9999, appId: 2, accessToken: "svcpk_live_other", keyId: "key_other" });
    for (let index = 0; index < 3; index += 1) expect((await api(emu, token, "GET", "/v1/whoami")).status).toBe(200);
    for (let index = 0; index < 2; index += 1) expect((await api(emu, "svcpk_live_other", "GET", "/v1/whoami")).status).toBe(200);
    const refused = await api(emu, "svcpk_live_other", "GET", "/v1/whoami");
    expect(refused.status).toBe(429);
    expect(refused.json.error.message).toContain("for this store");
  });
});

describe("idempotency", () => {
  const create = (key: string | undefined, body: unknown = { name: "Été" }, path = "/v1/categories", useToken = token) =>
    api(emu, useToken, "POST", path, { key, body });
  const countNamed = (name: string) => emu.ctx.state.categories.filter((category) => category.name === name).length;

  it("1. writes need a key, reads do not", async () => {
    const missing = await create(undefined);
    expect(missing.status).toBe(400);
    expect(missing.json.error.code).toBe("bad_request");
    expect((await api(emu, token, "GET", "/v1/categories")).status).toBe(200);
  });

  it.each([["a".repeat(65)], ["has space"], ["semi;colon"], [""]])("2. a malformed key %j gives 400 bad_request", async (key) => {
    const result = await create(key);
    expect(result.status).toBe(400);
    expect(result.json.error.code).toBe("bad_request");
  });

  it("2. the longest key with every allowed character is accepted", async () => {
    expect((await create(`Az09_-:.${"k".repeat(56)}`)).status).toBe(201);
  });

  it("3. a key belongs to one token", async () => {
    const other = emu.control.mintInstall(102).accessToken;
    const key = newKey();
    expect((await create(key)).status).toBe(201);
    const second = await create(key, { name: "Été" }, "/v1/categories", other);
    expect(second.status).toBe(201);
    expect(second.headers.get("idempotency-replay")).toBeNull();
  });

  it("4. the same request replays the stored answer with Idempotency-Replay: 1, for 24 hours", async () => {
    const key = newKey();
    const first = await create(key);
    const replay = await create(key);
    expect(replay.status).toBe(201);
    expect(replay.text).toBe(first.text);
    expect(replay.headers.get("idempotency-replay")).toBe("1");
    expect(countNamed("Été")).toBe(1);
    emu.control.advanceClock(24 * 3600);
    const later = await create(key);
    expect(later.headers.get("idempotency-replay")).toBeNull();
    expect(countNamed("Été")).toBe(2);
  });

  it("5. the same key with another body, method or path gives 422 idempotency_key_reuse; the query string is ignored", async () => {
    const key = newKey();
    expect((await create(key)).status).toBe(201);
    expect((await create(key, { name: "Autre" })).json.error.code).toBe("idempotency_key_reuse");
    expect((await create(key, { name: "Été" }, "/v1/categories/reorder")).json.error.code).toBe("idempotency_key_reuse");
    const methodKey = newKey();
    const id = emu.ctx.state.categories.find((category) => category.storeId === 101)!.id;
    expect((await api(emu, token, "PATCH", `/v1/categories/${id}`, { key: methodKey, body: {} })).status).toBe(200);
    const deleted = await api(emu, token, "DELETE", `/v1/categories/${id}`, { key: methodKey, body: {} });
    expect(deleted.json.error.code).toBe("idempotency_key_reuse");
    const withQuery = await create(key, { name: "Été" }, "/v1/categories?x=1");
    expect(withQuery.headers.get("idempotency-replay")).toBe("1");
  });

  it("6. 4xx answers are stored", async () => {
    const key = newKey();
    const first = await create(key, { name: "" });
    expect(first.status).toBe(422);
    const again = await create(key, { name: "" });
    expect(again.status).toBe(422);
    expect(again.headers.get("idempotency-replay")).toBe("1");
  });

  it("6. 5xx and 429 answers are not stored: a retry with the same key runs", async () => {
    const key = newKey();
    emu.control.addFaults([{ kind: "status", status: 503 }]);
    expect((await create(key)).status).toBe(503);
    alignToMinute();
    for (let index = 0; index < 120; index += 1) await api(emu, token, "GET", "/v1/whoami");
    expect((await create(key)).status).toBe(429);
    emu.control.advanceClock(60);
    const retried = await create(key);
    expect(retried.status).toBe(201);
    expect(retried.headers.get("idempotency-replay")).toBeNull();
  });

  it("7. the answer is stored when the first request finishes: two simultaneous requests both run", async () => {
    const key = newKey();
    // Each request is held 1.5 s before it runs, so the second arrives while the first is still running: with 150 ms,
    // a loaded machine (the browser tests run beside vitest) sent the second after the first had finished, a replay.
    emu.control.addFaults([{ kind: "slow", delayMs: 1_500, times: 2, method: "POST" }]);
    const [left, right] = await Promise.all([create(key, { name: "Twin" }), create(key, { name: "Twin" })]);
    expect([left.status, right.status]).toEqual([201, 201]);
    expect(countNamed("Twin")).toBe(2);
    expect((await create(key, { name: "Twin" })).headers.get("idempotency-replay")).toBe("1");
  });
});
