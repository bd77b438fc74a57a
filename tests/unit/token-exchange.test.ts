import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { setLogSink } from "@/lib/log";
import { env } from "@/lib/env";
import { authorizeUrl, exchangeCode, oauthClientFromEnv, type OAuthClient } from "@/lib/oauth/token-client";
import { APP_USER_AGENT } from "@/lib/platform";
import { PlatformError } from "@/lib/platform";
import { captureLogs } from "../helpers/log-capture";

/**
 * The token request over real HTTP against a small local server standing in for the token endpoint: what is sent,
 * and how each way the endpoint can fail to answer becomes a PlatformError.
 */
type Seen = { method?: string; url?: string; headers: IncomingMessage["headers"]; body: string };

let server: Server;
let baseUrl: string;
let seen: Seen[];
let handler: (request: IncomingMessage, response: ServerResponse) => void;
let restoreLog: () => void;

beforeEach(async () => {
  seen = [];
  restoreLog = setLogSink(() => {});
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      seen.push({ method: request.method, url: request.url, headers: request.headers, body });
      handler(request, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  restoreLog();
});

const client = (overrides: Partial<OAuthClient> = {}): OAuthClient => ({
  authUrl: `${baseUrl}/`,
  clientId: "svcapp_client",
  clientSecret: "svcas_secret",
  redirectUri: "https://app.example.com/oauth/callback",
  userAgent: APP_USER_AGENT,
  ...overrides,
});
const grant = { code: "ab".repeat(32), codeVerifier: "v".repeat(43) };
const answer = (status: number, body: string, headers: Record<string, string> = {}) => (_request: IncomingMessage, response: ServerResponse) => {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(body);
};
const stores = JSON.stringify({
  token_type: "Bearer",
  scope: "orders:read",
  stores: [{ store_id: 101, store_name: "Amina Couture", install_id: 7, access_token: "svcpk_live_a" }],
});

async function refusal(run: Promise<unknown>): Promise<PlatformError> {
  try {
    await run;
  } catch (error) {
    if (error instanceof PlatformError) return error;
    throw error;
  }
  throw new Error("expected the exchange to fail");
}

describe("exchangeCode", () => {
  it("posts exactly the spec's form to {auth_url}/oauth/apps/token, with a User-Agent, and reads the stores", async () => {
    handler = answer(200, stores);
    const result = await exchangeCode(client(), grant);
    expect(result).toEqual({ scopes: ["orders:read"], stores: [{ storeId: 101, storeName: "Amina Couture", installId: 7, accessToken: "svcpk_live_a" }] });
    expect(seen).toHaveLength(1);
    const [request] = seen;
    expect(request?.method).toBe("POST");
    expect(request?.url).toBe("/oauth/apps/token");
    expect(request?.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(request?.headers.accept).toBe("application/json");
    expect(request?.headers["user-agent"]).toBe(APP_USER_AGENT);
    expect(Object.fromEntries(new URLSearchParams(request?.body))).toEqual({
      grant_type: "authorization_code",
      code: grant.code,
      redirect_uri: "https://app.example.com/oauth/callback",
      code_verifier: grant.codeVerifier,
      client_id: "svcapp_client",
      client_secret: "svcas_secret",
    });
  });

  it("reaches {auth_url}/oauth/apps/token however many slashes end the configured URL", async () => {
    handler = answer(200, stores);
    await exchangeCode(client({ authUrl: `${baseUrl}//` }), grant);
    await exchangeCode(client({ authUrl: baseUrl }), grant);
    expect(seen.map((request) => request.url)).toEqual(["/oauth/apps/token", "/oauth/apps/token"]);
  });

  it("turns the endpoint's error answer into its OAuth error", async () => {
    handler = answer(400, JSON.stringify({ error: "invalid_grant", error_description: "The code is invalid" }), { "x-request-id": "req_7" });
    const error = await refusal(exchangeCode(client(), grant));
    expect([error.kind, error.status, error.code, error.requestId]).toEqual(["oauth", 400, "invalid_grant", "req_7"]);
  });

  it("tells the operator the endpoint refused, with its status, error and request id, never the code or the secret", async () => {
    handler = answer(401, JSON.stringify({ error: "invalid_client", error_description: "Client authentication failed" }), { "x-request-id": "req_8" });
    const { lines, entries } = await captureLogs("warn", () => refusal(exchangeCode(client(), grant)));
    expect(entries).toContainEqual(
      expect.objectContaining({ level: "warn", msg: "token exchange refused", status: 401, oauthError: "invalid_client", requestId: "req_8" }),
    );
    expect(lines.some((line) => line.includes(grant.code) || line.includes("svcas_secret"))).toBe(false);
  });

  it("does not follow a redirect: the code and secret go to the token endpoint only", async () => {
    handler = (request, response) => {
      if (request.url === "/elsewhere") return answer(200, stores)(request, response);
      response.writeHead(307, { location: `${baseUrl}/elsewhere` });
      response.end();
    };
    const error = await refusal(exchangeCode(client(), grant));
    expect([error.kind, error.status, error.code]).toEqual(["protocol", 307, "unexpected_response"]);
    expect(seen.map((request) => request.url)).toEqual(["/oauth/apps/token"]);
  });

  it("calls a 200 that is not JSON a protocol error, with the request id", async () => {
    handler = answer(200, "<html>maintenance</html>", { "x-request-id": "req_8" });
    const error = await refusal(exchangeCode(client(), grant));
    expect([error.kind, error.status, error.code, error.requestId]).toEqual(["protocol", 200, "unexpected_response", "req_8"]);
    expect(error.message).toBe("The token endpoint answered 200 with a body that is not JSON");
  });

  it("gives up after its timeout with a timeout error, and names an unreachable endpoint as such", async () => {
    handler = () => {};
    const slow = await refusal(exchangeCode(client({ timeoutMs: 200 }), grant));
    expect([slow.kind, slow.status, slow.code, slow.message]).toEqual(["network", null, "timeout", "The token endpoint did not answer in time"]);

    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const unreachable = await refusal(exchangeCode(client({ authUrl: `http://127.0.0.1:${port}` }), grant));
    expect([unreachable.kind, unreachable.code, unreachable.message]).toEqual(["network", "unreachable", "The token endpoint could not be reached"]);
  });

  it("sends through the fetch it is handed, on the platform transport (no redirect followed, never cached)", async () => {
    handler = answer(200, stores);
    const inits: RequestInit[] = [];
    const recording: typeof fetch = (url, init) => {
      inits.push(init ?? {});
      return fetch(url, init);
    };
    await exchangeCode(client({ fetch: recording }), grant);
    expect(inits.map((init) => [init.method, init.redirect, init.cache, new Headers(init.headers).get("user-agent")])).toEqual([
      ["POST", "manual", "no-store", APP_USER_AGENT],
    ]);
    expect(seen).toHaveLength(1);
  });

  it("is configured from the environment, with the callback route as its redirect URI", () => {
    expect(oauthClientFromEnv()).toEqual({
      authUrl: env.SVC_AUTH_URL,
      clientId: env.SVC_CLIENT_ID,
      clientSecret: env.SVC_CLIENT_SECRET,
      redirectUri: `${env.APP_URL}/oauth/callback`,
      scopes: env.SVC_SCOPES,
      userAgent: APP_USER_AGENT,
    });
  });
});

describe("authorizeUrl", () => {
  it("sends the merchant to the client's authorize URL with its id, redirect URI, scopes and the attempt's PKCE", () => {
    const url = authorizeUrl(
      { authUrl: "https://auth.example.com/", clientId: "svcapp_client", clientSecret: "svcas_secret", redirectUri: "https://app.example.com/oauth/callback", scopes: ["orders:read"], userAgent: APP_USER_AGENT },
      { state: "st", codeChallenge: "ch" },
    );
    expect(url).toBe(
      "https://auth.example.com/oauth/apps/authorize?response_type=code&client_id=svcapp_client&redirect_uri=https%3A%2F%2Fapp.example.com%2Foauth%2Fcallback&scope=orders%3Aread&state=st&code_challenge=ch&code_challenge_method=S256",
    );
    expect(url).not.toContain("svcas_secret");
  });
});
