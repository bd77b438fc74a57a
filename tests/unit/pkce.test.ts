import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { buildAuthorizeUrl } from "@/lib/oauth/authorize-url";
import { startInstallAttempt } from "@/lib/oauth/pkce";

const base64url = (bytes: Buffer) => bytes.toString("base64").replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

describe("startInstallAttempt", () => {
  it("creates a verifier within the platform's rules and its S256 challenge", async () => {
    const { attempt, codeChallenge } = await startInstallAttempt(1_700_000_000_000);
    expect(attempt.codeVerifier).toMatch(/^[A-Za-z0-9\-._~]{43,128}$/);
    expect(codeChallenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(codeChallenge).toBe(base64url(createHash("sha256").update(attempt.codeVerifier).digest()));
    expect(attempt.startedAt).toBe(1_700_000_000_000);
  });

  it("creates an unguessable state of allowed length, different every time and unrelated to the verifier", async () => {
    const attempts = await Promise.all(Array.from({ length: 50 }, () => startInstallAttempt()));
    const states = new Set(attempts.map(({ attempt }) => attempt.state));
    const verifiers = new Set(attempts.map(({ attempt }) => attempt.codeVerifier));
    expect(states.size).toBe(50);
    expect(verifiers.size).toBe(50);
    for (const { attempt } of attempts) {
      expect(attempt.state.length).toBeGreaterThanOrEqual(43);
      expect(attempt.state.length).toBeLessThanOrEqual(1024);
      expect(attempt.state).not.toBe(attempt.codeVerifier);
    }
  });
});

describe("buildAuthorizeUrl", () => {
  const input = {
    authUrl: "https://auth.example.com/",
    clientId: "svcapp_0123456789abcdef0123",
    redirectUri: "https://app.example.com/oauth/callback",
    state: "st4te-value_x",
    codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
  };

  it("sends exactly the spec's parameters to the authorize endpoint", () => {
    const url = new URL(buildAuthorizeUrl({ ...input, scopes: ["orders:read", "products:write"] }));
    expect(url.origin + url.pathname).toBe("https://auth.example.com/oauth/apps/authorize");
    expect([...url.searchParams.keys()]).toEqual([
      "response_type",
      "client_id",
      "redirect_uri",
      "scope",
      "state",
      "code_challenge",
      "code_challenge_method",
    ]);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: "code",
      client_id: input.clientId,
      redirect_uri: input.redirectUri,
      scope: "orders:read products:write",
      state: input.state,
      code_challenge: input.codeChallenge,
      code_challenge_method: "S256",
    });
  });

  it("encodes spaces as %20 and the redirect URI fully, so it arrives character for character", () => {
    const raw = buildAuthorizeUrl({ ...input, redirectUri: "https://app.example.com/cb?x=1&y=2", scopes: ["a:read", "b:write"] });
    expect(raw).toContain("scope=a%3Aread%20b%3Awrite");
    expect(raw).not.toContain("+");
    expect(new URL(raw).searchParams.get("redirect_uri")).toBe("https://app.example.com/cb?x=1&y=2");
  });

  it("leaves scope out when none is configured, so the platform grants the app's registered scopes", () => {
    expect(new URL(buildAuthorizeUrl(input)).searchParams.has("scope")).toBe(false);
    expect(new URL(buildAuthorizeUrl({ ...input, scopes: [] })).searchParams.has("scope")).toBe(false);
  });

  it("drops every trailing slash of the configured auth URL", () => {
    const url = new URL(buildAuthorizeUrl({ ...input, authUrl: "https://auth.example.com/base//" }));
    expect(url.pathname).toBe("/base/oauth/apps/authorize");
  });
});

describe("startInstallAttempt's clock", () => {
  it("dates the attempt now when no time is given", async () => {
    const before = Date.now();
    const { attempt } = await startInstallAttempt();
    expect(attempt.startedAt).toBeGreaterThanOrEqual(before);
    expect(attempt.startedAt).toBeLessThanOrEqual(Date.now());
  });
});
