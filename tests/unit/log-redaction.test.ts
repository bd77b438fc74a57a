import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PlatformError } from "@/lib/platform";
import { configureLog, log, redact, setLogSink } from "@/lib/log";

const TOKEN = "svcpk_live_" + "Zx9".repeat(10);
const CLIENT_SECRET = "svcas_" + "ab12".repeat(12);
const WEBHOOK_SECRET = "svcwhsec_" + "5e".repeat(24);

let lines: { line: string; level: string }[] = [];
let undo: (() => void)[] = [];

beforeEach(() => {
  lines = [];
  undo = [setLogSink((line, level) => lines.push({ line, level })), configureLog({ level: "debug" })];
});
afterEach(() => {
  for (const restore of undo.reverse()) restore();
});

function everything(): string {
  return lines.map((entry) => entry.line).join("\n");
}

describe("log redaction", () => {
  it("never prints a value under a sensitive key, at any depth up to the limit", () => {
    configureLog({ format: "json" });
    log.info("install stored", {
      storeId: 101,
      accessToken: "opaque-value-1",
      nested: { client_secret: "opaque-value-2", list: [{ Authorization: "opaque-value-3" }] },
      cookie: "opaque-value-4",
      codeVerifier: "opaque-value-5",
      code: "opaque-value-6",
      password: "opaque-value-7",
      TOKEN_ENCRYPTION_KEY: "opaque-value-8",
      sessionPassword: "opaque-value-9",
    });
    const text = everything();
    for (let index = 1; index <= 9; index += 1) expect(text).not.toContain(`opaque-value-${index}`);
    const parsed = JSON.parse(lines[0]?.line ?? "{}");
    expect(parsed.storeId).toBe(101);
    expect(parsed.accessToken).toBe("[redacted]");
    expect(parsed.nested.list[0].Authorization).toBe("[redacted]");
  });

  it("masks secret shapes wherever they appear: message, values, arrays, error messages", () => {
    log.error(`token exchange answered with ${TOKEN}`, {
      note: `secret was ${CLIENT_SECRET}, webhook ${WEBHOOK_SECRET}`,
      glued: `x_${TOKEN}`,
      many: [TOKEN, { deeper: TOKEN }],
      error: new Error(`call with ${TOKEN} failed`),
    });
    const text = everything();
    expect(text).not.toContain(TOKEN.slice("svcpk_live_".length));
    expect(text).not.toContain(CLIENT_SECRET.slice("svcas_".length));
    expect(text).not.toContain(WEBHOOK_SECRET.slice("svcwhsec_".length));
    expect(text).toContain("svcpk_live_[redacted]");
  });

  it("masks bearer headers, URL passwords and OAuth material in query strings", () => {
    const masked = redact({
      header: "Bearer abc.def-ghi",
      basic: "Basic c3ZjYXBwOnNlY3JldA==",
      database: "postgres://app:pg-password-1@db.internal:5432/app",
      callback: "https://app.example.com/oauth/callback?code=4f2a9c&state=xyz123&ok=1",
      form: "grant_type=authorization_code&code_verifier=verifier-value&client_secret=plain-secret",
    }) as Record<string, string>;
    expect(masked.header).toBe("Bearer [redacted]");
    expect(masked.basic).toBe("Basic [redacted]");
    expect(masked.database).toBe("postgres://app:[redacted]@db.internal:5432/app");
    expect(masked.callback).toBe("https://app.example.com/oauth/callback?code=[redacted]&state=[redacted]&ok=1");
    expect(masked.form).not.toMatch(/verifier-value|plain-secret/);
  });

  it("describes errors by name, message and typed fields, never by stack", () => {
    configureLog({ format: "json" });
    const error = new PlatformError({ kind: "api", status: 401, code: "unauthorized", message: "Invalid or revoked API key", requestId: "req_42" });
    log.warn("platform call failed", { error });
    const parsed = JSON.parse(lines[0]?.line ?? "{}");
    expect(parsed.error).toEqual({
      name: "PlatformError",
      message: "Invalid or revoked API key",
      kind: "api",
      status: 401,
      errorCode: "unauthorized",
      platformRequestId: "req_42",
    });
    expect(lines[0]?.line).not.toContain("at ");
  });

  it("stops at the depth limit instead of printing what it did not inspect, and survives cycles", () => {
    const deep: Record<string, unknown> = {};
    let cursor = deep;
    for (let index = 0; index < 10; index += 1) {
      cursor.next = {};
      cursor = cursor.next as Record<string, unknown>;
    }
    cursor.leak = TOKEN;
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic.self = cyclic;
    log.info("deep", { deep, cyclic });
    expect(everything()).not.toContain(TOKEN);
    expect(everything()).toContain("[truncated]");
  });

  it("keeps booleans under sensitive keys (they say whether, not what) and prints dates, bigints and bytes safely", () => {
    configureLog({ format: "json" });
    log.info("state", { hasToken: true, at: new Date("2026-01-02T03:04:05Z"), id: 9007199254740993n, body: Buffer.from("raw") });
    const parsed = JSON.parse(lines[0]?.line ?? "{}");
    expect(parsed).toMatchObject({ hasToken: true, at: "2026-01-02T03:04:05.000Z", id: "9007199254740993", body: "[binary 3 bytes]" });
  });
});

describe("log formats", () => {
  it("writes one JSON object per line with time, level, message and bound fields; fields cannot overwrite them", () => {
    configureLog({ format: "json" });
    log.with({ requestId: "req-1", installId: 7 }).with({ eventId: "evt_ab" }).info("webhook applied", { level: "debug", msg: "forged" });
    expect(lines).toHaveLength(1);
    const parsed = JSON.parse(lines[0]?.line ?? "{}");
    expect(parsed).toMatchObject({ level: "info", msg: "webhook applied", requestId: "req-1", installId: 7, eventId: "evt_ab" });
    expect(new Date(parsed.time).toString()).not.toBe("Invalid Date");
  });

  it("writes readable single lines in development, newlines escaped", () => {
    configureLog({ format: "pretty" });
    log.warn("first line\nERROR forged second line", { storeId: 101 });
    expect(lines).toHaveLength(1);
    expect(lines[0]?.line).toBe("WARN  first line\\nERROR forged second line  storeId=101");
    expect(lines[0]?.level).toBe("warn");
  });

  it("drops lines below the configured level", () => {
    configureLog({ level: "warn" });
    log.info("not shown");
    log.debug("not shown either");
    log.error("shown");
    expect(lines.map((entry) => entry.line)).toEqual([expect.stringContaining("shown")]);
  });
});
