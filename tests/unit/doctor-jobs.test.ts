import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import type { DatabaseHandle } from "@/db/client";
import { recordAppEnvironment } from "@/db/queries/app-environments";
import { runDoctor, type DoctorReport } from "@/lib/doctor";
import { checkJobsMode, judgeSharedDatabase } from "@/lib/doctor/jobs-checks";
import { createTestDatabase, databaseKind } from "../helpers/database";
import { goodEnv } from "../helpers/doctor-env";

const offline = { skipPlatform: true } as const;
const CRON = "a-cron-secret-of-24-chars";
const SERVER = "postgres://doctor@db.example.com:5432/app";

function line(report: DoctorReport, id: string) {
  const found = report.checks.find((check) => check.id === id);
  if (!found) throw new Error(`no ${id} line in ${report.checks.map((check) => check.id).join(", ")}`);
  return found;
}

describe("doctor: where the job queue is worked", () => {
  it.each([
    ["inline", { JOBS_WORKER: "inline" }],
    ["unset (inline by default)", {}],
  ])("fails JOBS_WORKER %s on Vercel, with the mode to use", (_, jobs) => {
    const check = checkJobsMode({ ...goodEnv(), DATABASE_URL: SERVER, VERCEL: "1", CRON_SECRET: CRON, ...jobs });
    expect(check).toMatchObject({ id: "jobs.mode", status: "fail" });
    expect(check.detail).toContain("on Vercel");
    expect(check.fix).toContain("JOBS_WORKER=requests");
  });

  it("fails requests without CRON_SECRET, on Vercel or not", () => {
    for (const vercel of [{ VERCEL: "1" }, {}]) {
      const check = checkJobsMode({ ...goodEnv(), DATABASE_URL: SERVER, JOBS_WORKER: "requests", ...vercel });
      expect(check).toMatchObject({ status: "fail" });
      expect(check.detail).toContain("without CRON_SECRET");
      expect(check.fix).toContain("CRON_SECRET");
    }
  });

  it("passes requests with CRON_SECRET on Vercel, inline and off on a Node host, and warns requests on the embedded database", () => {
    expect(checkJobsMode({ ...goodEnv(), DATABASE_URL: SERVER, VERCEL: "1", JOBS_WORKER: "requests", CRON_SECRET: CRON }).status).toBe("pass");
    expect(checkJobsMode({ ...goodEnv(), DATABASE_URL: SERVER }).status).toBe("pass");
    expect(checkJobsMode({ ...goodEnv(), DATABASE_URL: SERVER, JOBS_WORKER: "off" }).status).toBe("pass");
    expect(checkJobsMode({ ...goodEnv(), JOBS_WORKER: "requests", CRON_SECRET: CRON }).status).toBe("warn");
  });

  it("the whole report fails on Vercel with the default mode", async () => {
    const report = await runDoctor({ ...goodEnv(), VERCEL: "1" }, offline);
    expect(line(report, "jobs.mode").status).toBe("fail");
    expect(report.ok).toBe(false);
    const fixed = await runDoctor({ ...goodEnv(), VERCEL: "1", JOBS_WORKER: "requests", CRON_SECRET: CRON }, offline);
    expect(line(fixed, "jobs.mode").status).not.toBe("fail");
  });
});

describe("doctor: a preview's database", () => {
  const at = new Date("2026-11-20T10:00:00Z");
  const production = { environment: "production", appUrl: "https://orders.amina-couture.com", migratedAt: at };
  const preview = { environment: "preview", appUrl: "https://app-git-feature-amina.vercel.app", migratedAt: at };

  it("warns a preview whose database production migrated, and production whose database a preview migrated", () => {
    const shared = judgeSharedDatabase("preview", [preview, production]);
    expect(shared).toMatchObject({ id: "database.environments", status: "warn" });
    expect(shared.detail).toContain("production (https://orders.amina-couture.com, 2026-11-20)");
    expect(shared.fix).toContain("database of their own");
    expect(judgeSharedDatabase("production", [production, preview]).status).toBe("warn");
  });

  it("passes a database only previews migrated (or only production), and judges nothing off Vercel or before the migration", () => {
    expect(judgeSharedDatabase("preview", [preview]).status).toBe("pass");
    expect(judgeSharedDatabase("production", [production]).status).toBe("pass");
    expect(judgeSharedDatabase(undefined, [production, preview]).status).toBe("skip");
    expect(judgeSharedDatabase("preview", null).status).toBe("skip");
  });
});

describe(`doctor: a preview's database, read from the database (${databaseKind()})`, () => {
  let handle: DatabaseHandle;
  const open = async () => ({ ...handle, close: async () => {} });

  beforeAll(async () => {
    handle = await createTestDatabase();
  });
  afterAll(async () => {
    await handle?.close();
  });

  it("reads what npm run db:migrate recorded: a preview on production's database is warned", async () => {
    const env = { ...goodEnv(), DATABASE_URL: SERVER, VERCEL: "1", JOBS_WORKER: "requests", CRON_SECRET: CRON, VERCEL_ENV: "preview" };
    await handle.db.execute(sql`delete from app_environments`);
    await recordAppEnvironment(handle.db, { environment: "preview", appUrl: "https://app-git-x.vercel.app", migratedAt: new Date() });
    expect(line(await runDoctor(env, { ...offline, openDatabase: open }), "database.environments").status).toBe("pass");

    await recordAppEnvironment(handle.db, { environment: "production", appUrl: "https://orders.amina-couture.com", migratedAt: new Date() });
    const report = await runDoctor(env, { ...offline, openDatabase: open });
    expect(line(report, "database.environments")).toMatchObject({ status: "warn" });
    // A warning: the deploy goes on.
    expect(report.ok).toBe(true);
  });
});
