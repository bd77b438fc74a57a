import { PGlite } from "@electric-sql/pglite";
import { fromPglite, PgBoss, type ConstructorOptions } from "pg-boss";
import type { DatabaseHandle } from "@/db/types";
import { log } from "@/lib/log";
import { QUEUES } from "./queues";

/**
 * pg-boss on the app's own database: the embedded PGlite through pg-boss's adapter (one connection, the app's own
 * client: never a second process on the folder), or the PostgreSQL server through pg-boss's own small pool on the
 * same DATABASE_URL. Its tables live in their own schema, `pgboss`.
 */
export const JOB_SCHEMA = "pgboss";

export type BossRole = {
  /** This instance supervises: fails jobs whose heartbeat stopped (a killed worker), expires, retries. */
  supervise?: boolean;
  /** This instance keeps the cron schedules (lib/jobs/queues.ts SCHEDULES). */
  schedule?: boolean;
  /** Only for migrateJobs: install or upgrade pg-boss's schema. */
  migrate?: boolean;
  /** Connections of pg-boss's pool on a server database. */
  maxConnections?: number;
  /** How often this instance supervises and monitors (default 15 s). */
  superviseIntervalSeconds?: number;
  /**
   * A long-running worker: hold one connection that LISTENs, so a job sent to a queue with `notify`
   * (lib/jobs/queues.ts) wakes its loops at once. Where LISTEN cannot work (PgBouncer in transaction mode), pg-boss
   * warns and the loops poll at their base interval, as before.
   */
  listen?: boolean;
};

export function bossOptions(handle: DatabaseHandle, role: BossRole = {}): ConstructorOptions {
  const common: ConstructorOptions = {
    schema: JOB_SCHEMA,
    migrate: role.migrate ?? false,
    createSchema: role.migrate ?? false,
    supervise: role.supervise ?? false,
    schedule: role.schedule ?? false,
    // The monitor pass is what fails a job whose heartbeat stopped (a killed worker): every 15 s, not pg-boss's 60,
    // so a store's import resumes within a minute of a crash.
    superviseIntervalSeconds: role.superviseIntervalSeconds ?? 15,
    monitorIntervalSeconds: role.superviseIntervalSeconds ?? 15,
    // A minute's poll fan-out is due on the minute, and pg-boss checks its schedules every 30 s, then sends through
    // its own queue polled every 5 s: polls could begin up to 35 s into their minute (22 s in a bench run). Checked
    // every 10 s and sent within 2, they begin within about 12 s. One small statement each, on the schedulers only.
    ...(role.schedule ? { cronMonitorIntervalSeconds: 10, cronWorkerIntervalSeconds: 2 } : {}),
    // The instance registry writes a row per process every few seconds: nothing here reads it.
    registerInstance: false,
    useListenNotify: role.listen ?? false,
  };
  const client = (handle.db as unknown as { $client: unknown }).$client;
  if (handle.kind === "embedded" && client instanceof PGlite) {
    return { ...common, db: fromPglite(client), backend: "pglite" };
  }
  if (!handle.connectionString) throw new Error("the job engine needs the database's URL");
  return {
    ...common,
    connectionString: handle.connectionString,
    max: role.maxConnections ?? 4,
    application_name: "store-app-starter-jobs",
  };
}

/** A started pg-boss instance; its errors go to the log (pg-boss emits them; unheard, they would crash). */
export async function startBoss(handle: DatabaseHandle, role: BossRole = {}): Promise<PgBoss> {
  const boss = new PgBoss(bossOptions(handle, role));
  boss.on("error", (error) => log.warn("job engine error", { error: error.message }));
  // LISTEN/NOTIFY unavailable (PgBouncer in transaction mode): the loops poll every 2 s instead, which an operator
  // would want to know. pg-boss's other warnings were never logged here, and are left as they were.
  boss.on("warning", (warning) => {
    if ((warning.data as { type?: unknown } | undefined)?.type === "listen_notify_unavailable") log.warn("job engine cannot LISTEN: its workers poll instead", { warning: warning.message });
  });
  await boss.start();
  return boss;
}

/**
 * Installs (or upgrades) pg-boss's schema and creates or updates every queue the app uses: run by
 * `npm run db:migrate` and by the embedded database's start-up migration, right after the app's own tables.
 */
export async function migrateJobs(handle: DatabaseHandle): Promise<void> {
  const boss = await startBoss(handle, { migrate: true, maxConnections: 1 });
  try {
    const existing = new Set((await boss.getQueues()).map((queue) => queue.name));
    for (const [name, options] of Object.entries(QUEUES)) {
      if (existing.has(name)) {
        // The policy of a queue cannot change in place; the other settings follow the code.
        const { policy: _policy, ...rest } = options;
        await boss.updateQueue(name, rest);
      } else {
        await boss.createQueue(name, options);
      }
    }
  } finally {
    await boss.stop({ graceful: false, close: true });
  }
}
