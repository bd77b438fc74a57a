import { openDatabase, redactUrl, type DatabaseHandle } from "@/db/client";
import { listAppEnvironments } from "@/db/queries/app-environments";
import { listAppliedMigrations, pingDatabase } from "@/db/queries/health";
import { redact } from "@/lib/log";
import { judgeSharedDatabase } from "./jobs-checks";
import { compareMigrations, shippedMigrations, type ExpectedMigration } from "./migrations";
import type { CheckResult } from "./types";

export type DatabaseOpener = (url: string) => Promise<DatabaseHandle>;

const defaultOpener: DatabaseOpener = (url) => openDatabase({ url, maxConnections: 1 });

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function reason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return String(redact(message));
}

/**
 * Reachability and migrations of DATABASE_URL. Without DATABASE_URL the app uses the embedded database; it is
 * not opened here, because a second process on a live PGlite folder corrupts it (and the app migrates it itself).
 */
export async function checkDatabase(
  databaseUrl: string | null | undefined,
  options: {
    open?: DatabaseOpener;
    timeoutMs?: number;
    shipped?: ExpectedMigration[];
    /** VERCEL_ENV: with it, the deployments recorded in the database are judged (judgeSharedDatabase). */
    environment?: string;
  } = {},
): Promise<CheckResult[]> {
  const reachable = { id: "database.reachable", title: "Database" };
  const migrations = { id: "database.migrations", title: "Migrations" };
  if (!databaseUrl) {
    return [
      {
        ...reachable,
        status: "warn",
        detail: "DATABASE_URL is unset: the app will use the embedded database in PGLITE_DIR (not opened here: a second process can corrupt a live folder)",
        fix: "fine for a single Node host with a persistent disk; a serverless host needs DATABASE_URL (its disk is not kept)",
      },
      { ...migrations, status: "skip", detail: "the embedded database applies its migrations when the app starts" },
    ];
  }
  const timeoutMs = options.timeoutMs ?? 10_000;
  const location = redactUrl(databaseUrl);
  let handle: DatabaseHandle | undefined;
  try {
    try {
      handle = await withTimeout((options.open ?? defaultOpener)(databaseUrl), timeoutMs, "the database");
      await withTimeout(pingDatabase(handle.db), timeoutMs, "the database");
    } catch (error) {
      return [
        {
          ...reachable,
          status: "fail",
          detail: `cannot reach ${location}: ${reason(error)}`,
          fix: "check DATABASE_URL (host, port, user, password, database name) and that this host may connect to it",
        },
        { ...migrations, status: "skip", detail: "needs a reachable database" },
      ];
    }
    const reached: CheckResult = { ...reachable, status: "pass", detail: `reachable at ${location}` };
    try {
      const shipped = options.shipped ?? shippedMigrations();
      const status = compareMigrations(shipped, await withTimeout(listAppliedMigrations(handle.db), timeoutMs, "the database"));
      if (status.state === "pending") {
        return [
          reached,
          {
            ...migrations,
            status: "fail",
            detail: `${status.pending.length} of ${shipped.length} not applied: ${status.pending.join(", ")}`,
            fix: "run `npm run db:migrate` with this DATABASE_URL before starting the new version",
          },
        ];
      }
      if (status.state === "ahead") {
        return [
          reached,
          {
            ...migrations,
            status: "warn",
            detail: `the database has ${status.unknown} migration(s) this build does not ship`,
            fix: "deploy the build that wrote them (an older build is running against a newer schema)",
          },
        ];
      }
      const latest = shipped.at(-1)?.tag ?? "none";
      const applied: CheckResult = { ...migrations, status: "pass", detail: `all ${shipped.length} applied (latest ${latest})` };
      if (!options.environment) return [reached, applied];
      const recorded = await withTimeout(listAppEnvironments(handle.db), timeoutMs, "the database").catch(() => null);
      return [reached, applied, judgeSharedDatabase(options.environment, recorded)];
    } catch (error) {
      return [reached, { ...migrations, status: "fail", detail: `cannot read the migrations table: ${reason(error)}` }];
    }
  } finally {
    // A hung connection must not keep the doctor alive after its verdict.
    if (handle) await withTimeout(handle.close(), 5_000, "closing").catch(() => undefined);
  }
}
