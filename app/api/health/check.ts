import type { Db } from "@/db/client";
import { listAppliedMigrations, pingDatabase } from "@/db/queries/health";
import { compareMigrations, shippedMigrations } from "@/lib/doctor/migrations";

/**
 * What GET /api/health reports. Deliberately small and vague: a load balancer needs a verdict, an attacker
 * probing the endpoint should learn nothing about URLs, versions or secrets.
 */
export type HealthReport = {
  /** "starting": the database is still being opened for the first time (not ready yet, nothing wrong). */
  status: "ok" | "starting" | "error";
  checks: { database: "ok" | "starting" | "error"; migrations: "ok" | "pending" | "unknown" };
};

/**
 * A health probe must answer before the balancer's own timeout, even when the database hangs or the pool is dead:
 * every step has this deadline (the webhook receiver's too), so a dead database reads as "error" within it.
 */
const DATABASE_TIMEOUT_MS = 1_500;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Migrations "ahead" of this build count as ok: during a rolling deploy the old instances keep serving after
 * the new release migrated, and taking them out of rotation would be worse than the (additive) difference.
 */
export async function checkHealth(
  getDb: () => Promise<Db>,
  options: { timeoutMs?: number; isOpening?: () => boolean } = {},
): Promise<{ report: HealthReport; problem?: unknown }> {
  const timeoutMs = options.timeoutMs ?? DATABASE_TIMEOUT_MS;
  let db: Db;
  try {
    db = await withTimeout(getDb(), timeoutMs);
  } catch (problem) {
    // Still on its first open: not ready, and not a fault to report either.
    if (options.isOpening?.()) return { report: { status: "starting", checks: { database: "starting", migrations: "unknown" } } };
    return { report: { status: "error", checks: { database: "error", migrations: "unknown" } }, problem };
  }
  try {
    await withTimeout(pingDatabase(db, { deadlineMs: timeoutMs }), timeoutMs);
  } catch (problem) {
    return { report: { status: "error", checks: { database: "error", migrations: "unknown" } }, problem };
  }
  try {
    const status = compareMigrations(shippedMigrations(), await withTimeout(listAppliedMigrations(db), timeoutMs));
    const migrations = status.state === "pending" ? "pending" : "ok";
    return { report: { status: migrations === "ok" ? "ok" : "error", checks: { database: "ok", migrations } } };
  } catch (problem) {
    return { report: { status: "error", checks: { database: "ok", migrations: "unknown" } }, problem };
  }
}
