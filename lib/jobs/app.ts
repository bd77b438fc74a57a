import "server-only";
import type { PgBoss } from "pg-boss";
import { getDatabase } from "@/lib/database/app-database";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { startBoss } from "./boss";
import { startWorker } from "./runtime";

/**
 * The app process's job engine, one per process (kept on globalThis like the database, so dev reloads reuse it).
 * On the embedded database, or with JOBS_WORKER=inline, it is a worker that also keeps the schedules; otherwise it
 * only sends jobs, and `npm run worker` or the cron route works them.
 */
const globalForJobs = globalThis as unknown as { appJobs?: Promise<PgBoss> };

export function runsInlineWorker(): boolean {
  return !env.DATABASE_URL || env.JOBS_WORKER === "inline";
}

export function getJobs(): Promise<PgBoss> {
  if (!globalForJobs.appJobs) {
    globalForJobs.appJobs = (async () => {
      const handle = await getDatabase();
      if (!runsInlineWorker()) return startBoss(handle);
      const worker = await startWorker(handle, { schedule: true });
      log.info("job worker running inside the app", { component: "jobs", database: handle.kind });
      return worker.boss;
    })().catch((error: unknown) => {
      globalForJobs.appJobs = undefined;
      throw error;
    });
  }
  return globalForJobs.appJobs;
}
