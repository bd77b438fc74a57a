import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import type { DatabaseHandle } from "@/db/client";
import { DEV_APP } from "@/lib/dev-app";
import { formatReport, runDoctor, type DoctorReport } from "@/lib/doctor";
import { EnvError, parseEnv } from "@/lib/env";
import { createTestDatabase, databaseKind } from "../helpers/database";
import { goodEnv } from "../helpers/doctor-env";

const offline = { skipPlatform: true } as const;

function line(report: DoctorReport, id: string) {
  const found = report.checks.find((check) => check.id === id);
  if (!found) throw new Error(`no ${id} line in ${report.checks.map((check) => check.id).join(", ")}`);
  return found;
}

describe("doctor: variables, judged as production", () => {
  it("passes a complete configuration, one line per required variable", async () => {
    const report = await runDoctor(goodEnv(), offline);
    expect(report.ok).toBe(true);
    for (const name of ["APP_URL", "SVC_AUTH_URL", "SVC_API_URL", "SVC_CLIENT_ID", "SVC_CLIENT_SECRET", "SVC_WEBHOOK_SECRET", "SESSION_SECRET", "TOKEN_ENCRYPTION_KEY"]) {
      expect(line(report, `env.${name}`).status).toBe("pass");
    }
  });

  it("judges as production even when NODE_ENV says development (no defaults fill the gaps)", async () => {
    const report = await runDoctor({ NODE_ENV: "development" }, offline);
    expect(report.ok).toBe(false);
    expect(line(report, "env.SVC_CLIENT_SECRET")).toMatchObject({ status: "fail", detail: "missing" });
  });

  it.each([
    ["APP_URL", "orders.amina-couture.com", "must be an absolute URL", "https://app.example.com"],
    ["SVC_AUTH_URL", "auth.svc-platform.com", "must be an absolute URL", "auth host"],
    ["SVC_AUTH_URL", "http://auth.svc-platform.com", "must use https in production", "auth host"],
    ["SVC_API_URL", "http://api.svc-platform.com", "must use https in production", "without /v1"],
    ["SVC_CLIENT_ID", "svcapp_0123456789ABCDEF0123", "must be svcapp_ followed by 20 hex characters", "developer console"],
    ["SVC_CLIENT_ID", "svcapp_0123", "must be svcapp_ followed by 20 hex characters", "developer console"],
    ["SVC_CLIENT_SECRET", "svcas_" + "0".repeat(47), "must be svcas_ followed by 48 hex characters", "developer console"],
    ["SVC_CLIENT_SECRET", "svcpk_live_" + "0".repeat(48), "must be svcas_ followed by 48 hex characters", "developer console"],
    ["SVC_WEBHOOK_SECRET", "short", "signing secret", "developer console"],
    ["SESSION_SECRET", "x".repeat(31), "at least 32 characters", "openssl rand"],
    ["TOKEN_ENCRYPTION_KEY", Buffer.alloc(16, 1).toString("base64"), "32 random bytes", "openssl rand -base64 32"],
    ["TOKEN_ENCRYPTION_KEY", "not base64 at all!", "32 random bytes", "openssl rand -base64 32"],
    ["DATABASE_URL", "mysql://db.internal/app", "postgres:// or postgresql://", "embedded database"],
    ["SVC_SCOPES", "orders:read ".repeat(50), "at most 512 characters", "all registered scopes"],
    ["CRON_SECRET", "short", "at least 16 characters", "openssl rand"],
    ["LOG_LEVEL", "verbose", "", "debug, info, warn or error"],
  ])("fails %s = %j with its reason and fix", async (name, value, reason, fix) => {
    const report = await runDoctor({ ...goodEnv(), [name]: value }, offline);
    const check = line(report, `env.${name}`);
    expect(check.status).toBe("fail");
    expect(check.detail).toContain(reason);
    expect(check.fix).toContain(fix);
    expect(report.ok).toBe(false);
    // The other variables keep their own verdicts.
    expect(line(report, "env.SVC_WEBHOOK_SECRET" === `env.${name}` ? "env.SESSION_SECRET" : "env.SVC_WEBHOOK_SECRET").status).toBe("pass");
  });

  it.each(["APP_URL", "SVC_AUTH_URL", "SVC_API_URL", "SVC_CLIENT_ID", "SVC_CLIENT_SECRET", "SVC_WEBHOOK_SECRET", "SESSION_SECRET", "TOKEN_ENCRYPTION_KEY"])(
    "fails a missing or empty %s",
    async (name) => {
      for (const value of [undefined, ""]) {
        const report = await runDoctor({ ...goodEnv(), [name]: value }, offline);
        expect(line(report, `env.${name}`)).toMatchObject({ status: "fail", detail: "missing" });
      }
    },
  );

  it.each([
    ["SVC_CLIENT_ID", DEV_APP.clientId],
    ["SVC_CLIENT_SECRET", DEV_APP.clientSecret],
    ["SVC_WEBHOOK_SECRET", DEV_APP.webhookSecret],
    ["TOKEN_ENCRYPTION_KEY", Buffer.alloc(32, 7).toString("base64")],
    ["SESSION_SECRET", "development-only-session-secret-not-for-production"],
  ])("fails %s set to the template's public development value", async (name, value) => {
    const report = await runDoctor({ ...goodEnv(), [name]: value }, offline);
    expect(line(report, `env.${name}`)).toMatchObject({ status: "fail", detail: "is the template's public development value" });
  });

  it("fails exactly the variables the server refuses at start, each with a fix", async () => {
    const configurations = [
      { NODE_ENV: "production" },
      { ...goodEnv(), SVC_API_URL: "http://api.svc-platform.com", SESSION_SECRET: "short", STORE_TIME_ZONE: "Mars/Olympus", DEFAULT_LOCALE: "xx" },
    ];
    for (const raw of configurations) {
      let refused: string[] = [];
      try {
        parseEnv(raw);
      } catch (error) {
        if (!(error instanceof EnvError)) throw error;
        refused = error.problems.map((problem) => problem.variable);
      }
      const failed = (await runDoctor(raw, offline)).checks.filter((check) => check.id.startsWith("env.") && check.status === "fail");
      expect(failed.map((check) => check.title).sort()).toEqual(refused.sort());
      for (const check of failed) expect(check.fix, check.title).toBeTruthy();
    }
  });

  it("never prints a secret's value, whether valid or not", async () => {
    const secrets = {
      SVC_CLIENT_SECRET: "svcas_" + "9".repeat(40),
      SESSION_SECRET: "tiny-secret-value",
      TOKEN_ENCRYPTION_KEY: "c2hvcnQta2V5",
      SVC_WEBHOOK_SECRET: "whsec-short",
    };
    const bad = formatReport(await runDoctor({ ...goodEnv(), ...secrets }, offline));
    for (const value of Object.values(secrets)) expect(bad).not.toContain(value);
    const good = goodEnv();
    const printed = formatReport(await runDoctor(good, offline));
    for (const name of ["SVC_CLIENT_SECRET", "SESSION_SECRET", "TOKEN_ENCRYPTION_KEY", "SVC_WEBHOOK_SECRET"]) {
      expect(printed).not.toContain(good[name] as string);
    }
  });
});

describe("doctor: redirect URI", () => {
  it("derives it from APP_URL and tells what to register", async () => {
    const report = await runDoctor({ ...goodEnv(), APP_URL: "https://orders.amina-couture.com/" }, offline);
    const check = line(report, "redirect-uri");
    expect(check.status).toBe("pass");
    expect(check.detail).toContain("https://orders.amina-couture.com/oauth/callback (register exactly this string");
  });

  it("fails an APP_URL with a path, since the app would not serve that redirect URI", async () => {
    const report = await runDoctor({ ...goodEnv(), APP_URL: "https://amina-couture.com/orders-app" }, offline);
    const check = line(report, "redirect-uri");
    expect(check.status).toBe("fail");
    expect(check.detail).toContain("APP_URL has a path");
    expect(check.fix).toBe("set APP_URL to the origin only: https://amina-couture.com");
  });

  it("skips URL checks when APP_URL itself is malformed", async () => {
    const report = await runDoctor({ ...goodEnv(), APP_URL: "nope" }, offline);
    expect(line(report, "redirect-uri").status).toBe("skip");
    expect(line(report, "webhook-url").status).toBe("skip");
  });
});

describe(`doctor: database (${databaseKind()})`, () => {
  let handle: DatabaseHandle;
  // The doctor closes what it opens; the test database outlives each run.
  const open = async () => ({ ...handle, close: async () => {} });
  const withDatabase = { ...goodEnv(), DATABASE_URL: "postgres://doctor@db.example.com:5432/app" };

  beforeAll(async () => {
    handle = await createTestDatabase();
  });
  afterAll(async () => {
    await handle?.close();
  });

  it("passes a reachable database with every migration applied", async () => {
    const report = await runDoctor(withDatabase, { ...offline, openDatabase: open });
    expect(line(report, "database.reachable")).toMatchObject({ status: "pass", detail: "reachable at postgres://doctor@db.example.com:5432/app" });
    expect(line(report, "database.migrations")).toMatchObject({ status: "pass" });
    expect(line(report, "database.migrations").detail).toMatch(/^all \d+ applied \(latest \w+\)$/);
    expect(report.ok).toBe(true);
  });

  it.runIf(databaseKind() === "server")("opens DATABASE_URL itself when no opener is given", async () => {
    // A server test database's location is its URL (it has no password to hide).
    const report = await runDoctor({ ...goodEnv(), DATABASE_URL: handle.location }, offline);
    expect(line(report, "database.reachable").status).toBe("pass");
    expect(line(report, "database.migrations").status).toBe("pass");
  });

  it("warns, without failing, about migrations the build does not ship", async () => {
    await handle.db.execute(sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('future', 99999999999999)`);
    try {
      const report = await runDoctor(withDatabase, { ...offline, openDatabase: open });
      expect(line(report, "database.migrations")).toMatchObject({ status: "warn" });
      expect(line(report, "database.migrations").detail).toContain("1 migration(s) this build does not ship");
      expect(report.ok).toBe(true);
    } finally {
      await handle.db.execute(sql`delete from drizzle.__drizzle_migrations where hash = 'future'`);
    }
  });

  it("fails with the pending migrations named when the release step did not run", async () => {
    // The latest migration's record goes for this test only: tests run in random order and share this database.
    const result = await handle.db.execute(
      sql`select hash, created_at::text as created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`,
    );
    const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { hash: string; created_at: string }[];
    const latest = rows[0];
    if (!latest) throw new Error("the test database has no migration recorded");
    await handle.db.execute(sql`delete from drizzle.__drizzle_migrations where hash = ${latest.hash}`);
    try {
      const report = await runDoctor(withDatabase, { ...offline, openDatabase: open });
      const check = line(report, "database.migrations");
      expect(check.status).toBe("fail");
      expect(check.detail).toMatch(/^1 of \d+ not applied: \w+$/);
      expect(check.fix).toContain("npm run db:migrate");
      expect(report.ok).toBe(false);
    } finally {
      await handle.db.execute(
        sql`insert into drizzle.__drizzle_migrations (hash, created_at) values (${latest.hash}, ${latest.created_at}::bigint)`,
      );
    }
  });

  it("fails an unreachable database, names where it looked, and hides the password", async () => {
    const report = await runDoctor(
      { ...goodEnv(), DATABASE_URL: "postgres://app:s3cr3t-pw@127.0.0.1:1/app" },
      { ...offline, timeoutMs: 5_000 },
    );
    const check = line(report, "database.reachable");
    expect(check.status).toBe("fail");
    expect(check.detail).toContain("cannot reach postgres://app:***@127.0.0.1:1/app");
    expect(line(report, "database.migrations").status).toBe("skip");
    expect(formatReport(report)).not.toContain("s3cr3t-pw");
    expect(report.ok).toBe(false);
  });

  it("warns, without opening it, when the embedded database would be used", async () => {
    const report = await runDoctor(goodEnv(), offline);
    expect(line(report, "database.reachable").status).toBe("warn");
    expect(line(report, "database.reachable").fix).toContain("serverless host needs DATABASE_URL");
    expect(report.ok).toBe(true);
  });
});

describe("doctor: report", () => {
  it("prints one line per check, the fix under each failure, and the verdict", async () => {
    const report = await runDoctor({ ...goodEnv(), SESSION_SECRET: "short" }, offline);
    const text = formatReport(report);
    const lines = text.split("\n");
    expect(lines.find((entry) => entry.startsWith("✗ SESSION_SECRET"))).toContain("must be at least 32 characters");
    const index = lines.findIndex((entry) => entry.startsWith("✗ SESSION_SECRET"));
    expect(lines[index + 1]).toMatch(/^\s+fix: generate one with `openssl rand -base64 32`/);
    expect(lines.find((entry) => entry.startsWith("✓ APP_URL"))).toBeDefined();
    expect(lines.at(-1)).toBe("1 check(s) failed.");
    expect(formatReport(await runDoctor(goodEnv(), offline)).split("\n").at(-1)).toBe("All checks passed.");
  });
});
