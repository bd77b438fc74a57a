import { beforeEach, describe, expect, it } from "vitest";
import { DEV_APP } from "@/lib/dev-app";
import { api, exchange, formPost, obtainCode, rawRequest, tokenFields, startEmulatorForFile } from "./support";

const emu = startEmulatorForFile();
beforeEach(() => emu.control.reset());

const INVALID_GRANT = "The code is invalid, expired, already used, or does not match this request";

function basic(id: string, secret: string): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, "+");
  return `Basic ${Buffer.from(`${encode(id)}:${encode(secret)}`).toString("base64")}`;
}

function withoutClient(fields: [string, string][]): [string, string][] {
  return fields.filter(([name]) => name !== "client_id" && name !== "client_secret");
}

describe("token endpoint", () => {
  it("exchanges a code for one token per store, with no-store and no expiry or refresh token", async () => {
    const { code, verifier } = await obtainCode(emu, 1, [101, 102]);
    const result = await exchange(emu, tokenFields(code, verifier));
    expect(result.status).toBe(200);
    expect(result.headers.get("cache-control")).toBe("no-store");
    const body = result.json;
    expect(body.token_type).toBe("Bearer");
    expect(body.scope).toBe("products:read products:write orders:read orders:write customers:read analytics:read");
    expect(body).not.toHaveProperty("expires_in");
    expect(body).not.toHaveProperty("refresh_token");
    expect(body.stores.map((store: { store_id: number }) => store.store_id)).toEqual([101, 102]);
    expect(body.stores[0]).toEqual({
      store_id: 101,
      store_name: "Amina Couture",
      install_id: body.install_id,
      access_token: body.access_token,
    });
    expect(body.store_id).toBe(101);
    for (const store of body.stores) expect(store.access_token).toMatch(/^svcpk_live_/);
    const whoami = await api(emu, body.stores[1].access_token, "GET", "/v1/whoami");
    expect(whoami.json.data.store_id).toBe(102);
  });

  it("accepts client credentials as form-urlencoded HTTP Basic when the form has none", async () => {
    const { code, verifier } = await obtainCode(emu, 1, [101]);
    const result = await exchange(emu, withoutClient(tokenFields(code, verifier)), {
      authorization: basic(DEV_APP.clientId, DEV_APP.clientSecret),
    });
    expect(result.status).toBe(200);
  });

  it("reads form credentials first: a wrong form secret fails even with a correct Basic header", async () => {
    const { code, verifier } = await obtainCode(emu, 1, [101]);
    const fields = withoutClient(tokenFields(code, verifier));
    const result = await exchange(emu, [...fields, ["client_id", DEV_APP.clientId], ["client_secret", "svcas_wrong"]], {
      authorization: basic(DEV_APP.clientId, DEV_APP.clientSecret),
    });
    expect(result.status).toBe(401);
    expect(result.json).toEqual({ error: "invalid_client", error_description: "Client authentication failed" });
    expect(result.headers.get("www-authenticate")).toBeNull();
  });

  it.each([
    ["no credentials at all", [] as [string, string][], {}, false],
    ["unknown client in the form", [["client_id", "svcapp_0123456789abcdef0123"], ["client_secret", DEV_APP.clientSecret]], {}, false],
    ["client id without secret", [["client_id", DEV_APP.clientId]], {}, false],
    ["wrong Basic secret", [], { authorization: basic(DEV_APP.clientId, "nope") }, true],
    ["unknown Basic client", [], { authorization: basic("svcapp_0123456789abcdef0123", "x") }, true],
  ] as const)("%s: 401 invalid_client", async (_name, credentials, headers, challenged) => {
    const result = await exchange(emu, [["grant_type", "authorization_code"], ["code", "x"], ...(credentials as unknown as [string, string][])], headers);
    expect(result.status).toBe(401);
    expect(result.json.error).toBe("invalid_client");
    expect(result.headers.get("cache-control")).toBe("no-store");
    expect(result.headers.get("www-authenticate")).toBe(challenged ? 'Basic realm="svc"' : null);
  });

  it("checks the client before grant_type, and grant_type before claiming the code", async () => {
    const { code, verifier } = await obtainCode(emu, 1, [101]);
    const badClient = tokenFields(code, verifier).map(([name, value]): [string, string] =>
      name === "client_secret" ? [name, "wrong"] : name === "grant_type" ? [name, "password"] : [name, value],
    );
    expect((await exchange(emu, badClient)).json.error).toBe("invalid_client");
    const badGrant = tokenFields(code, verifier).map(([name, value]): [string, string] => (name === "grant_type" ? [name, "client_credentials"] : [name, value]));
    const refused = await exchange(emu, badGrant);
    expect(refused.status).toBe(400);
    expect(refused.json).toEqual({ error: "unsupported_grant_type", error_description: "Only authorization_code is supported" });
    // Neither failure claimed the code.
    expect((await exchange(emu, tokenFields(code, verifier))).status).toBe(200);
  });

  it.each([
    ["wrong verifier", (fields: [string, string][]) => fields.map(([n, v]): [string, string] => (n === "code_verifier" ? [n, "a".repeat(43)] : [n, v]))],
    ["different redirect URI", (fields: [string, string][]) => fields.map(([n, v]): [string, string] => (n === "redirect_uri" ? [n, `${v}/`] : [n, v]))],
    ["verifier too short", (fields: [string, string][]) => fields.map(([n, v]): [string, string] => (n === "code_verifier" ? [n, v.slice(0, 42)] : [n, v]))],
  ])("%s: invalid_grant, and the claimed code is spent", async (_name, spoil) => {
    const { code, verifier } = await obtainCode(emu, 1, [101]);
    const failed = await exchange(emu, spoil(tokenFields(code, verifier)));
    expect(failed.status).toBe(400);
    expect(failed.json).toEqual({ error: "invalid_grant", error_description: INVALID_GRANT });
    const retried = await exchange(emu, tokenFields(code, verifier));
    expect(retried.json.error).toBe("invalid_grant");
  });

  it("a used code is refused", async () => {
    const { code, verifier } = await obtainCode(emu, 1, [101]);
    expect((await exchange(emu, tokenFields(code, verifier))).status).toBe(200);
    expect((await exchange(emu, tokenFields(code, verifier))).json.error_description).toBe(INVALID_GRANT);
  });

  it("a code expires after 10 minutes", async () => {
    const { code, verifier } = await obtainCode(emu, 1, [101]);
    emu.control.advanceClock(600);
    expect((await exchange(emu, tokenFields(code, verifier))).json.error).toBe("invalid_grant");
    const fresh = await obtainCode(emu, 1, [101]);
    emu.control.advanceClock(599);
    expect((await exchange(emu, tokenFields(fresh.code, fresh.verifier))).status).toBe(200);
  });

  it("checks each store again at exchange: stores that can no longer take the app are left out", async () => {
    const { code, verifier } = await obtainCode(emu, 1, [101, 102]);
    emu.control.setStorePlan(102, "free");
    const result = await exchange(emu, tokenFields(code, verifier));
    expect(result.status).toBe(200);
    expect(result.json.stores.map((store: { store_id: number }) => store.store_id)).toEqual([101]);
  });

  it("no store left after the final check: invalid_grant 'No approved store could be installed'", async () => {
    const { code, verifier } = await obtainCode(emu, 1, [102]);
    emu.control.setStorePlan(102, "pro", "2000-01-01T00:00:00Z");
    const result = await exchange(emu, tokenFields(code, verifier));
    expect(result.status).toBe(400);
    expect(result.json).toEqual({ error: "invalid_grant", error_description: "No approved store could be installed" });
  });

  it("installing again keeps the install_id, replaces the scopes, and revokes the old token at once", async () => {
    const first = await obtainCode(emu, 1, [101]);
    const before = (await exchange(emu, tokenFields(first.code, first.verifier))).json;
    const second = await obtainCode(emu, 1, [101], { scope: "orders:read" });
    const after = (await exchange(emu, tokenFields(second.code, second.verifier))).json;
    expect(after.install_id).toBe(before.install_id);
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.scope).toBe("orders:read");
    const old = await api(emu, before.access_token, "GET", "/v1/whoami");
    expect(old.status).toBe(401);
    expect(old.json.error.message).toBe("Invalid or revoked API key");
    const current = await api(emu, after.access_token, "GET", "/v1/whoami");
    expect(current.json.data.scopes).toEqual(["orders:read"]);
  });

  it("a POST without User-Agent gets 403 and an HTML challenge", async () => {
    const result = await rawRequest(emu, "POST", "/oauth/apps/token", { "content-type": "application/x-www-form-urlencoded" }, "grant_type=authorization_code");
    expect(result.status).toBe(403);
    expect(String(result.headers["content-type"])).toContain("text/html");
    const approve = await rawRequest(emu, "POST", "/oauth/apps/approve", {}, "");
    expect(approve.status).toBe(403);
  });

  it("60 calls per 300 seconds, then 429 with Retry-After; JSON with Accept: application/json, HTML otherwise", async () => {
    for (let index = 0; index < 60; index += 1) {
      expect((await exchange(emu, [["grant_type", "authorization_code"]])).status).toBe(401);
    }
    const json = await exchange(emu, [["grant_type", "authorization_code"]]);
    expect(json.status).toBe(429);
    expect(json.json.error).toBe("rate_limited");
    const retryAfter = Number(json.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(120);
    const htmlAnswer = await formPost(emu, "/oauth/apps/token", [["grant_type", "authorization_code"]]);
    expect(htmlAnswer.status).toBe(429);
    expect(htmlAnswer.headers.get("content-type")).toContain("text/html");
  });
});
