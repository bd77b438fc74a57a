import type { DatabaseHandle } from "@/db/types";
import { migrateJobs } from "@/lib/jobs/boss";

/**
 * The whole migration of a database: the app's tables (db/migrations, through the handle), then the job engine's
 * schema and queues (lib/jobs/boss.ts). What `npm run db:migrate` runs at release, what the embedded database runs
 * when the app first opens it, and what tests and benchmarks run on a fresh database.
 */
export async function migrateDatabase(handle: DatabaseHandle): Promise<void> {
  await handle.migrateTables();
  await migrateJobs(handle);
}
