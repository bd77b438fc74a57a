import { sql } from "drizzle-orm";
import type { DatabaseHandle } from "@/db/client";
import { JOB_SCHEMA } from "@/lib/jobs/boss";

/**
 * Between the tests of a file that shares one database with its job engine: no store, order, import, drain lease
 * or job left by the test before. The engine's own tables stay (its queues and schedules are the file's set-up).
 */
export async function clearStoresAndJobs(handle: DatabaseHandle): Promise<void> {
  await handle.db.execute(sql`truncate table installs, orders, order_items, order_status_history, order_sync_state, order_backfills, job_drain cascade`);
  await handle.db.execute(sql.raw(`delete from ${JOB_SCHEMA}.job`));
}
