import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql, TransactionRollbackError } from "drizzle-orm";
import type { DatabaseHandle, Db } from "@/db/client";
import { listAppliedMigrations } from "@/db/queries/health";
import { checkHealth } from "@/app/api/health/check";
import { shippedMigrations } from "@/lib/doctor/migrations";
import { createTestDatabase, databaseKind } from "../helpers/database";

describe(`health (${databaseKind()})`, () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase();
  });
  afterAll(async () => {
    await handle?.close();
  });

  /** A destructive change and its checks, inside a transaction rolled back after: the next test finds the database whole. */
  async function rolledBack(check: (db: Db) => Promise<void>): Promise<void> {
    try {
      await handle.db.transaction(async (tx) => {
        await check(tx as unknown as Db);
        tx.rollback();
      });
    } catch (error) {
      if (!(error instanceof TransactionRollbackError)) throw error;
    }
  }

  it("records every shipped migration once the database is migrated", async () => {
    const applied = await listAppliedMigrations(handle.db);
    expect(applied.map((row) => row.createdAt)).toEqual(shippedMigrations().map((migration) => migration.when));
  });

  it("is ok with the database reachable and every migration applied", async () => {
    const { report } = await checkHealth(async () => handle.db);
    expect(report).toEqual({ status: "ok", checks: { database: "ok", migrations: "ok" } });
  });

  it("is an error, with the reason kept out of the report, when the database cannot be opened", async () => {
    const { report, problem } = await checkHealth(async () => {
      throw new Error("connect ECONNREFUSED 10.0.0.9:5432 (postgres://app:pw@10.0.0.9/app)");
    });
    expect(report).toEqual({ status: "error", checks: { database: "error", migrations: "unknown" } });
    expect(JSON.stringify(report)).not.toMatch(/10\.0\.0\.9|postgres|pw/);
    expect(problem).toBeInstanceOf(Error);
  });

  it("is an error when the database hangs past the timeout", async () => {
    const hanging = { execute: () => new Promise(() => {}) } as unknown as Db;
    const { report } = await checkHealth(async () => hanging, { timeoutMs: 50 });
    expect(report.checks.database).toBe("error");
    expect(report.status).toBe("error");
  });

  it("is starting, with nothing to report, when the first open of the database is still under way", async () => {
    const { report, problem } = await checkHealth(() => new Promise(() => {}), { timeoutMs: 50, isOpening: () => true });
    expect(report).toEqual({ status: "starting", checks: { database: "starting", migrations: "unknown" } });
    expect(problem).toBeUndefined();
    // The same wait on a database that was open before is a fault.
    const after = await checkHealth(() => new Promise(() => {}), { timeoutMs: 50, isOpening: () => false });
    expect(after.report.status).toBe("error");
  });

  it("reports pending migrations when the release step has not run", async () => {
    await rolledBack(async (db) => {
      await db.execute(
        sql`delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`,
      );
      const { report } = await checkHealth(async () => db);
      expect(report).toEqual({ status: "error", checks: { database: "ok", migrations: "pending" } });
    });
  });

  it("reports pending migrations on a database no migration ever touched", async () => {
    await rolledBack(async (db) => {
      await db.execute(sql`drop schema drizzle cascade`);
      expect(await listAppliedMigrations(db)).toEqual([]);
      const { report } = await checkHealth(async () => db);
      expect(report.checks.migrations).toBe("pending");
    });
  });
});

describe("GET /api/health", () => {
  const saved = process.env.DATABASE_URL;
  afterAll(async () => {
    if (saved === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = saved;
    const { resetEnvCache } = await import("@/lib/env");
    resetEnvCache();
    (globalThis as { appDatabase?: unknown }).appDatabase = undefined;
  });

  it("answers 503 with the small JSON, no-store, and logs the reason without the password", async () => {
    const { resetEnvCache } = await import("@/lib/env");
    const { setLogSink } = await import("@/lib/log");
    process.env.DATABASE_URL = "postgres://app:health-pw@127.0.0.1:1/app";
    resetEnvCache();
    (globalThis as { appDatabase?: unknown }).appDatabase = undefined;
    const lines: string[] = [];
    const restore = setLogSink((line) => lines.push(line));
    try {
      const { GET } = await import("@/app/api/health/route");
      const response = await GET();
      expect(response.status).toBe(503);
      expect(response.headers.get("cache-control")).toBe("no-store");
      const text = await response.text();
      expect(JSON.parse(text)).toEqual({ status: "error", checks: { database: "error", migrations: "unknown" } });
      expect(text).not.toMatch(/127\.0\.0\.1|health-pw|postgres/);
      expect(lines.join("\n")).toContain("health check failed");
      expect(lines.join("\n")).not.toContain("health-pw");
    } finally {
      restore();
    }
  });

  it("knows when this process is still opening its database", async () => {
    const { resetEnvCache } = await import("@/lib/env");
    const { getDatabase, isDatabaseOpening } = await import("@/lib/database/app-database");
    process.env.DATABASE_URL = "postgres://app:pw@127.0.0.1:1/app";
    resetEnvCache();
    (globalThis as { appDatabase?: unknown }).appDatabase = undefined;
    expect(isDatabaseOpening()).toBe(false);
    const opening = getDatabase();
    expect(isDatabaseOpening()).toBe(true);
    const handle = await opening;
    expect(isDatabaseOpening()).toBe(false);
    await handle.close();
  });

  it("answers 503 starting and logs no warning while the database is still opening", async () => {
    const { setLogSink } = await import("@/lib/log");
    const state = globalThis as { appDatabase?: unknown; appDatabaseOpening?: boolean };
    state.appDatabase = new Promise(() => {});
    state.appDatabaseOpening = true;
    const lines: string[] = [];
    const restore = setLogSink((line) => lines.push(line));
    try {
      const { GET } = await import("@/app/api/health/route");
      const response = await GET();
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ status: "starting", checks: { database: "starting", migrations: "unknown" } });
      expect(lines.join("\n")).not.toContain("health check failed");
    } finally {
      restore();
      state.appDatabaseOpening = false;
    }
  });
});
