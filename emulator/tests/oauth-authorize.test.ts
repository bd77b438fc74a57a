import { beforeEach, describe, expect, it } from "vitest";
import { REDIRECT_URI, authorizeQuery, browserGet, formPost, obtainCode, openConsent, startEmulatorForFile } from "./support";

const emu = startEmulatorForFile();
beforeEach(() => emu.control.reset());

function redirectParams(location: string | null) {
  expect(location).not.toBeNull();
  expect(location!.startsWith(REDIRECT_URI)).toBe(true);
  return new URL(location!).searchParams;
}

describe("authorize: checks before any redirect", () => {
  it.each([
    ["unknown client id", { client_id: "svcapp_0123456789abcdef0123" }],
    ["malformed client id", { client_id: "not-a-client" }],
    ["missing client id", { client_id: null }],
    ["redirect URI not identical", { redirect_uri: `${REDIRECT_URI}/` }],
    ["missing redirect URI", { redirect_uri: null }],
  ])("%s gives an error page with HTTP 400 and no redirect", async (_name, overrides) => {
    const page = await browserGet(emu, `/oauth/apps/authorize?${authorizeQuery({ ...overrides, response_type: "token" })}`, 1);
    expect(page.status).toBe(400);
    expect(page.location).toBeNull();
    expect(page.headers.get("content-type")).toContain("text/html");
  });

  it("sends a browser without a merchant session to /login, then back", async () => {
    const query = authorizeQuery();
    const page = await browserGet(emu, `/oauth/apps/authorize?${query}`, null);
    expect(page.status).toBe(302);
    expect(page.location).toBe(`/login?next=${encodeURIComponent(`/oauth/apps/authorize?${query}`)}`);
    const login = await formPost(emu, "/login", [["merchant_id", "1"], ["next", `/oauth/apps/authorize?${query}`]]);
    expect(login.status).toBe(303);
    expect(login.location).toBe(`/oauth/apps/authorize?${query}`);
    expect(login.headers.get("set-cookie")).toContain("emu_merchant=1");
  });

  it.each([
    ["draft", 1, 404],
    ["in_review", 1, 404],
    ["suspended", 1, 404],
    ["rejected", 1, 404],
    ["suspended", 3, 404],
    ["draft", 3, 200],
    ["approved", 1, 200],
  ] as const)("app %s seen by merchant %i answers %i", async (status, merchantId, expected) => {
    emu.control.setAppStatus(status);
    const page = await browserGet(emu, `/oauth/apps/authorize?${authorizeQuery()}`, merchantId);
    expect(page.status).toBe(expected);
    expect(page.location).toBeNull();
  });
});

describe("authorize: redirected errors", () => {
  it.each([
    ["response_type not code", { response_type: "token" }, "unsupported_response_type", "state-123"],
    ["response_type not code, state too long", { response_type: "token", state: "s".repeat(1025) }, "unsupported_response_type", null],
    ["state missing", { state: null }, "invalid_request", null],
    ["state empty", { state: "" }, "invalid_request", null],
    ["state over 1024 characters", { state: "s".repeat(1025) }, "invalid_request", null],
    ["challenge of 42 characters", { code_challenge: "a".repeat(42) }, "invalid_request", "state-123"],
    ["challenge with padding", { code_challenge: `${"a".repeat(42)}=` }, "invalid_request", "state-123"],
    ["method plain", { code_challenge_method: "plain" }, "invalid_request", "state-123"],
    ["method missing", { code_challenge_method: null }, "invalid_request", "state-123"],
    ["scope not registered", { scope: "orders:read whatsapp:send" }, "invalid_scope", "state-123"],
    ["scope closed to apps", { scope: "ai:generate" }, "invalid_scope", "state-123"],
    ["scope over 512 characters", { scope: `orders:read${" ".repeat(510)}orders:read` }, "invalid_scope", "state-123"],
  ])("%s", async (_name, overrides, error, state) => {
    const page = await browserGet(emu, `/oauth/apps/authorize?${authorizeQuery(overrides)}`, 1);
    expect(page.status).toBe(302);
    const params = redirectParams(page.location);
    expect(params.get("error")).toBe(error);
    expect(params.get("state")).toBe(state);
    expect(params.get("code")).toBeNull();
  });

  it("keeps a 1024-character state and returns it unchanged", async () => {
    const state = "x".repeat(1023) + "é";
    const { location } = await obtainCode(emu, 1, [101], { state });
    expect(new URL(location).searchParams.get("state")).toBe(state);
  });
});

describe("consent screen", () => {
  it("lists the merchant's own stores, the ones that cannot take the app with their reason, and no others", async () => {
    const page = await browserGet(emu, `/oauth/apps/authorize?${authorizeQuery()}`, 1);
    expect(page.status).toBe(200);
    for (const id of [101, 102, 103]) expect(page.text).toContain(`name="store_id" value="${id}"`);
    expect(page.text).not.toContain(`name="store_id" value="104"`);
    expect(page.text).toContain('data-reason="plan_below_minimum"');
    expect(page.text).not.toContain(`name="store_id" value="201"`);
    expect(page.text).toContain('data-reason="not_owner"');
    expect(page.text).not.toContain("Dev Sandbox");
    expect(page.text).not.toContain("data-test-mode");
    expect(page.text).toContain('formaction="/oauth/apps/deny"');
  });

  it("shows the test-mode notice to the developer of an unapproved app", async () => {
    emu.control.setAppStatus("in_review");
    const page = await browserGet(emu, `/oauth/apps/authorize?${authorizeQuery()}`, 3);
    expect(page.status).toBe(200);
    expect(page.text).toContain("data-test-mode");
    expect(page.text).toContain(`name="store_id" value="301"`);
  });

  it("approves: 302 to the redirect URI with a 64-hex code and the state", async () => {
    const { location } = await obtainCode(emu, 1, [101, 102]);
    const params = redirectParams(location);
    expect(params.get("code")).toMatch(/^[0-9a-f]{64}$/);
    expect(params.get("state")).toBe("state-123");
  });

  it("appends with & when the registered URI already has a query string", async () => {
    const uri = "http://localhost:3000/oauth/callback?tenant=a";
    emu.ctx.state.apps[0]!.redirectUris.push(uri);
    const { location } = await obtainCode(emu, 1, [101], { redirect_uri: uri });
    expect(location.startsWith(`${uri}&code=`)).toBe(true);
  });

  it("denies: access_denied with the state", async () => {
    const requestId = await openConsent(emu, 1, authorizeQuery());
    const denied = await formPost(emu, "/oauth/apps/deny", [["request_id", requestId]], { merchantId: 1 });
    expect(denied.status).toBe(302);
    const params = redirectParams(denied.location);
    expect(params.get("error")).toBe("access_denied");
    expect(params.get("state")).toBe("state-123");
  });

  const approveWith = async (storeIds: number[], prepare?: () => void) => {
    const requestId = await openConsent(emu, 1, authorizeQuery());
    prepare?.();
    return formPost(emu, "/oauth/apps/approve", [["request_id", requestId], ...storeIds.map((id): [string, string] => ["store_id", String(id)])], {
      merchantId: 1,
    });
  };

  it.each([
    ["no store selected", [], 400],
    ["a store of another merchant", [101, 201], 403],
    ["a store below the app's minimum plan", [104], 403],
    ["an unknown store", [999], 403],
  ])("%s gives an error page with HTTP %i", async (_name, storeIds, status) => {
    const result = await approveWith(storeIds);
    expect(result.status).toBe(status);
    expect(result.location).toBeNull();
  });

  it("more than 10 stores gives 400; exactly 10 is accepted", async () => {
    const extra = Array.from({ length: 8 }, (_, index) => 1001 + index);
    const addStores = () => {
      for (const id of extra) {
        emu.ctx.state.stores.push({ ...emu.ctx.state.stores[0]!, id, name: `Extra ${id}` });
      }
    };
    expect((await approveWith([101, 102, 103, ...extra], addStores)).status).toBe(400);
    emu.control.reset();
    const ten = await approveWith([101, 102, ...extra], addStores);
    expect(ten.status).toBe(302);
  });

  it("a request older than 10 minutes gives 400", async () => {
    expect((await approveWith([101], () => emu.control.advanceClock(600))).status).toBe(400);
    expect((await approveWith([101], () => emu.control.advanceClock(590))).status).toBe(302);
  });

  it("a request already answered gives 400, whichever button", async () => {
    const requestId = await openConsent(emu, 1, authorizeQuery());
    const fields: [string, string][] = [["request_id", requestId], ["store_id", "101"]];
    expect((await formPost(emu, "/oauth/apps/approve", fields, { merchantId: 1 })).status).toBe(302);
    expect((await formPost(emu, "/oauth/apps/approve", fields, { merchantId: 1 })).status).toBe(400);
    expect((await formPost(emu, "/oauth/apps/deny", fields, { merchantId: 1 })).status).toBe(400);
  });
});

describe("OAuth limits", () => {
  it("authorize: 30 per 300 seconds, then 429 with Retry-After of at most 120", async () => {
    for (let index = 0; index < 30; index += 1) {
      expect((await browserGet(emu, `/oauth/apps/authorize?${authorizeQuery()}`, 1)).status).toBe(200);
    }
    const refused = await browserGet(emu, `/oauth/apps/authorize?${authorizeQuery()}`, 1);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(120);
    emu.control.advanceClock(300);
    expect((await browserGet(emu, `/oauth/apps/authorize?${authorizeQuery()}`, 1)).status).toBe(200);
  });

  it("approve: 10 per 600 seconds", async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 11; index += 1) {
      statuses.push((await formPost(emu, "/oauth/apps/approve", [["request_id", "nope"]], { merchantId: 1 })).status);
    }
    expect(statuses.slice(0, 10).every((status) => status === 400)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});
