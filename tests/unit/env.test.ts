import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "@/lib/env";
import { DEV_APP } from "@/lib/dev-app";
import { envValues, parseEnvFile } from "@/scripts/support/env-file";
import { SECTIONS } from "@/lib/sections";

const productionEnv = {
  NODE_ENV: "production",
  APP_URL: "https://app.example.com/",
  SVC_AUTH_URL: "https://auth.example.com",
  SVC_API_URL: "https://api.example.com",
  SVC_CLIENT_ID: "svcapp_0123456789abcdef0123",
  SVC_CLIENT_SECRET: "svcas_" + "ab".repeat(24),
  SVC_WEBHOOK_SECRET: "whsec_production_0123456789",
  SESSION_SECRET: "x".repeat(32),
  TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString("base64"),
};

function problemsOf(raw: Record<string, string | undefined>): Record<string, string> {
  try {
    parseEnv(raw);
  } catch (error) {
    if (error instanceof EnvError) return Object.fromEntries(error.problems.map((p) => [p.variable, p.message]));
    throw error;
  }
  return {};
}

describe("parseEnv", () => {
  it("gives development every default the emulator's fixtures expect, with no variable set", () => {
    const env = parseEnv({ NODE_ENV: "development" });
    expect(env.APP_URL).toBe("http://localhost:3000");
    expect(env.SVC_AUTH_URL).toBe("http://localhost:4000");
    expect(env.SVC_CLIENT_ID).toBe(DEV_APP.clientId);
    expect(env.SVC_CLIENT_SECRET).toBe(DEV_APP.clientSecret);
    expect(env.SVC_WEBHOOK_SECRET).toBe(DEV_APP.webhookSecret);
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it("asks in development only for the scopes the pages use (the sections' scopes, each once), unless told otherwise", () => {
    const scopes = parseEnv({ NODE_ENV: "development" }).SVC_SCOPES ?? [];
    expect(scopes).toContain("orders:read");
    expect(new Set(scopes)).toEqual(new Set(SECTIONS.flatMap((section) => section.scopes)));
    expect(scopes).toHaveLength(new Set(scopes).size);
    expect(parseEnv({ NODE_ENV: "development", SVC_SCOPES: "orders:read" }).SVC_SCOPES).toEqual(["orders:read"]);
  });

  it("recommends in .env.example the scopes development asks for", () => {
    const example = envValues(parseEnvFile(readFileSync(path.resolve(import.meta.dirname, "../../.env.example"), "utf8")));
    expect(example.SVC_SCOPES).toBe(parseEnv({ NODE_ENV: "development" }).SVC_SCOPES?.join(" "));
  });

  it("points the development defaults at EMULATOR_PORT", () => {
    expect(parseEnv({ NODE_ENV: "development", EMULATOR_PORT: "4555" }).SVC_API_URL).toBe("http://localhost:4555");
  });

  it("accepts a complete production environment and trims the origin's trailing slash", () => {
    const env = parseEnv(productionEnv);
    expect(env.APP_URL).toBe("https://app.example.com");
    expect(env.SVC_SCOPES).toBeUndefined();
  });

  it("names every missing variable at once in production, with no development default filling in", () => {
    const problems = problemsOf({ NODE_ENV: "production" });
    expect(Object.keys(problems).sort()).toEqual(
      [
        "APP_URL",
        "SESSION_SECRET",
        "SVC_API_URL",
        "SVC_AUTH_URL",
        "SVC_CLIENT_ID",
        "SVC_CLIENT_SECRET",
        "SVC_WEBHOOK_SECRET",
        "TOKEN_ENCRYPTION_KEY",
      ].sort(),
    );
    expect(problems.SVC_CLIENT_ID).toBe("missing");
  });

  it.each([
    ["SVC_CLIENT_ID", "svcapp_XYZ", "svcapp_ followed by 20 hex"],
    ["SVC_CLIENT_SECRET", "svcas_123", "svcas_ followed by 48 hex"],
    ["SESSION_SECRET", "short", "at least 32 characters"],
    ["TOKEN_ENCRYPTION_KEY", Buffer.alloc(16).toString("base64"), "32 random bytes"],
    ["APP_URL", "app.example.com", "absolute URL"],
    ["DATABASE_URL", "mysql://x", "postgres://"],
    ["SVC_SCOPES", "a".repeat(513), "512"],
  ])("refuses a malformed %s with a message saying what is expected", (variable, value, expected) => {
    const problems = problemsOf({ ...productionEnv, [variable]: value });
    expect(Object.keys(problems)).toEqual([variable]);
    expect(problems[variable]).toContain(expected);
  });

  it("never echoes a variable's value in its message", () => {
    const secret = "svcas_not-really-hex-but-secret-value";
    try {
      parseEnv({ ...productionEnv, SVC_CLIENT_SECRET: secret });
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).not.toContain(secret);
    }
  });

  it("refuses in production the secrets this repository publishes as development defaults, naming each", () => {
    const published = parseEnv({ NODE_ENV: "development" });
    const problems = problemsOf({
      ...productionEnv,
      SESSION_SECRET: published.SESSION_SECRET,
      TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
      CRON_SECRET: published.CRON_SECRET,
    });
    expect(problems).toEqual({
      SESSION_SECRET: "is the template's public development value",
      TOKEN_ENCRYPTION_KEY: "is the template's public development value",
      CRON_SECRET: "is the template's public development value",
    });
  });

  it("applies the production rules when told to, whatever NODE_ENV says (a production build started as development)", () => {
    const problems = problemsOf({ NODE_ENV: "development" });
    expect(problems).toEqual({});
    try {
      parseEnv({ NODE_ENV: "development" }, { production: true });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(EnvError);
      expect((error as EnvError).problems.map((problem) => problem.variable)).toContain("SESSION_SECRET");
    }
    const built = parseEnv({ ...productionEnv, NODE_ENV: "development" }, { production: true });
    expect(built.NODE_ENV).toBe("production");
  });

  it("refuses plain http to the platform and the emulator's credentials unless the platform is an emulator on this machine", () => {
    expect(problemsOf({ ...productionEnv, SVC_API_URL: "http://api.example.com" })).toEqual({
      SVC_API_URL: "must use https in production",
    });
    expect(problemsOf({ ...productionEnv, SVC_CLIENT_SECRET: DEV_APP.clientSecret, SVC_WEBHOOK_SECRET: DEV_APP.webhookSecret })).toEqual({
      SVC_CLIENT_SECRET: "is the template's public development value",
      SVC_WEBHOOK_SECRET: "is the template's public development value",
    });
    const againstEmulator = {
      ...productionEnv,
      APP_URL: "http://localhost:3000",
      SVC_AUTH_URL: "http://localhost:4000",
      SVC_API_URL: "http://127.0.0.1:4000",
      SVC_CLIENT_ID: DEV_APP.clientId,
      SVC_CLIENT_SECRET: DEV_APP.clientSecret,
      SVC_WEBHOOK_SECRET: DEV_APP.webhookSecret,
    };
    expect(problemsOf(againstEmulator)).toEqual({});
    // Loopback platform hosts behind a public app (a forward proxy or tunnel to the real platform): no rehearsal.
    expect(problemsOf({ ...againstEmulator, APP_URL: "https://app.example.com" })).toEqual({
      SVC_AUTH_URL: "must use https in production",
      SVC_API_URL: "must use https in production",
      SVC_CLIENT_ID: "is the template's public development value",
      SVC_CLIENT_SECRET: "is the template's public development value",
      SVC_WEBHOOK_SECRET: "is the template's public development value",
    });
    expect(problemsOf({ ...againstEmulator, SVC_AUTH_URL: "http://auth.example.com" })).toMatchObject({
      SVC_AUTH_URL: "must use https in production",
      SVC_CLIENT_SECRET: "is the template's public development value",
    });
  });

  it("refuses a plain http APP_URL in production unless it is this machine", () => {
    expect(problemsOf({ ...productionEnv, APP_URL: "http://app.example.com" })).toEqual({ APP_URL: "must use https in production" });
    expect(problemsOf({ ...productionEnv, APP_URL: "http://localhost:3000" })).toEqual({});
    expect(problemsOf({ ...productionEnv, APP_URL: "http://127.0.0.1:3000" })).toEqual({});
    expect(problemsOf({ ...productionEnv, APP_URL: "http://localhost.example.com" })).toEqual({ APP_URL: "must use https in production" });
    expect(problemsOf({ NODE_ENV: "development", APP_URL: "http://192.168.1.10:3000" })).toEqual({});
  });

  it("reads TRUST_PROXY_HOPS as a whole number from 0 to 10, 0 when unset", () => {
    expect(parseEnv(productionEnv).TRUST_PROXY_HOPS).toBe(0);
    expect(parseEnv({ ...productionEnv, TRUST_PROXY_HOPS: "2", TRUSTED_PROXIES: "10.0.0.0/8" }).TRUST_PROXY_HOPS).toBe(2);
    for (const bad of ["-1", "1.5", "11", "one"]) expect(problemsOf({ ...productionEnv, TRUST_PROXY_HOPS: bad })).toHaveProperty("TRUST_PROXY_HOPS");
  });

  it("refuses production behind proxies (TRUST_PROXY_HOPS ≥ 1) without TRUSTED_PROXIES, naming the variable", () => {
    for (const hops of ["1", "2", "10"]) {
      expect(problemsOf({ ...productionEnv, TRUST_PROXY_HOPS: hops }), hops).toEqual({
        TRUSTED_PROXIES: "missing: TRUST_PROXY_HOPS is 1 or more, so list the proxies whose X-Forwarded-For is believed",
      });
    }
    expect(() => parseEnv({ ...productionEnv, TRUST_PROXY_HOPS: "1" })).toThrow(/TRUSTED_PROXIES: missing/);
    // The server's own start (parseEnv with production forced, as `env` does in a production build) refuses it too.
    expect(() => parseEnv({ ...productionEnv, NODE_ENV: "development", TRUST_PROXY_HOPS: "1" }, { production: true })).toThrow(/TRUSTED_PROXIES/);
    expect(problemsOf({ ...productionEnv, TRUST_PROXY_HOPS: "1", TRUSTED_PROXIES: "10.0.0.0/8" })).toEqual({});
    expect(problemsOf({ ...productionEnv, TRUST_PROXY_HOPS: "0" })).toEqual({});
    expect(problemsOf(productionEnv)).toEqual({});
    // A malformed hop count fails on its own line only.
    expect(problemsOf({ ...productionEnv, TRUST_PROXY_HOPS: "one" })).toEqual({ TRUST_PROXY_HOPS: expect.any(String) });
  });

  it("refuses a TRUSTED_PROXIES set empty behind proxies: empty means no proxy, never every private range", () => {
    for (const empty of ["", " ", ",", " , "]) {
      expect(problemsOf({ ...productionEnv, TRUST_PROXY_HOPS: "1", TRUSTED_PROXIES: empty }), JSON.stringify(empty)).toEqual({
        TRUSTED_PROXIES: "is empty, which trusts no proxy, while TRUST_PROXY_HOPS is 1 or more: list the proxies' addresses or CIDRs",
      });
    }
    // Without hops it reads nothing either way; empty parses as an empty list (no proxy), unset as unset.
    expect(parseEnv({ ...productionEnv, TRUSTED_PROXIES: "" }).TRUSTED_PROXIES).toEqual([]);
    expect(parseEnv({ ...productionEnv, TRUSTED_PROXIES: " , " }).TRUSTED_PROXIES).toEqual([]);
    expect(parseEnv(productionEnv).TRUSTED_PROXIES).toBeUndefined();
    expect(parseEnv({ NODE_ENV: "development", TRUSTED_PROXIES: "" }).TRUSTED_PROXIES).toEqual([]);
    expect(parseEnv({ NODE_ENV: "development", TRUST_PROXY_HOPS: "1" }).TRUSTED_PROXIES).toBeUndefined();
    expect(parseEnv({ ...productionEnv, TRUST_PROXY_HOPS: "1", TRUSTED_PROXIES: " 10.0.0.0/8 ,, 2001:db8::/48" }).TRUSTED_PROXIES).toEqual(["10.0.0.0/8", "2001:db8::/48"]);
    // Other variables set empty still read as unset.
    expect(problemsOf({ ...productionEnv, SESSION_SECRET: "" })).toEqual({ SESSION_SECRET: "missing" });
  });

  it("does not ask for TRUSTED_PROXIES where no hop is read: a rehearsal on this machine, or Vercel", () => {
    const rehearsal = { ...productionEnv, APP_URL: "http://localhost:3000", SVC_AUTH_URL: "http://localhost:4000", SVC_API_URL: "http://127.0.0.1:4000" };
    expect(problemsOf({ ...rehearsal, TRUST_PROXY_HOPS: "1" })).toEqual({});
    expect(problemsOf({ ...productionEnv, VERCEL: "1", TRUST_PROXY_HOPS: "1" })).toEqual({});
    expect(problemsOf({ ...productionEnv, VERCEL: "0", TRUST_PROXY_HOPS: "1" })).toHaveProperty("TRUSTED_PROXIES");
  });

  it("splits SVC_SCOPES on white space", () => {
    expect(parseEnv({ ...productionEnv, SVC_SCOPES: " orders:read  products:read " }).SVC_SCOPES).toEqual([
      "orders:read",
      "products:read",
    ]);
  });
});
