import type { PgBoss } from "pg-boss";
import { JOB_SCHEMA } from "./boss";
import { JOB, type JobName } from "./queues";

/**
 * The queue at a glance, per job kind: for `npm run jobs`, and for metrics (a gauge per field). Read straight from
 * pg-boss's job table in one statement; completed jobs are not counted.
 */
export type QueueFigures = {
  name: JobName;
  /** Waiting to run (new, or waiting for a retry). */
  queued: number;
  active: number;
  /** Failed for good: retries ran out. Kept until pg-boss's retention deletes them. */
  failed: number;
  /** Seconds the oldest waiting job has waited; 0 when none waits. */
  oldestQueuedSeconds: number;
};

export async function queueStats(boss: PgBoss): Promise<QueueFigures[]> {
  const { rows } = await boss.getDb().executeSql(
    `select name,
            count(*) filter (where state in ('created', 'retry'))::int as queued,
            count(*) filter (where state = 'active')::int as active,
            count(*) filter (where state = 'failed')::int as failed,
            coalesce(extract(epoch from now() - min(created_on) filter (where state in ('created', 'retry'))), 0)::float8 as oldest
       from ${JOB_SCHEMA}.job
      where state in ('created', 'retry', 'active', 'failed')
      group by name`,
  );
  const byName = new Map(rows.map((row: { name: string; queued: number; active: number; failed: number; oldest: number }) => [row.name, row]));
  return Object.values(JOB).map((name) => {
    const row = byName.get(name);
    return {
      name,
      queued: Number(row?.queued ?? 0),
      active: Number(row?.active ?? 0),
      failed: Number(row?.failed ?? 0),
      oldestQueuedSeconds: Math.round(Number(row?.oldest ?? 0)),
    };
  });
}

export type JobError = { id: string; name: string; key: string | null; state: string; at: Date; error: string };

/** The last jobs that failed (for good, or waiting for a retry), newest first, with pg-boss's recorded message. */
export async function lastErrors(boss: PgBoss, limit = 10): Promise<JobError[]> {
  const { rows } = await boss.getDb().executeSql(
    `select id::text as id, name, singleton_key as key, state::text as state, coalesce(completed_on, started_on, created_on) as at,
            coalesce(output->>'message', output::text, '') as error
       from ${JOB_SCHEMA}.job
      where state in ('failed', 'retry') and output is not null
      order by coalesce(completed_on, started_on, created_on) desc
      limit $1`,
    [limit],
  );
  return rows.map((row: { id: string; name: string; key: string | null; state: string; at: string | Date; error: string }) => ({
    id: row.id,
    name: row.name,
    key: row.key,
    state: row.state,
    at: new Date(row.at),
    error: row.error.slice(0, 300),
  }));
}

/** Sends a failed job back to the queue. False when no job has that id in a state that can be retried. */
export async function retryJob(boss: PgBoss, id: string): Promise<boolean> {
  const { rows } = await boss.getDb().executeSql(`select name from ${JOB_SCHEMA}.job where id::text = $1 and state = 'failed'`, [id]);
  const name = (rows[0] as { name?: string } | undefined)?.name;
  if (!name) return false;
  await boss.retry(name, id);
  const after = await boss.getDb().executeSql(`select state::text as state from ${JOB_SCHEMA}.job where id::text = $1`, [id]);
  return (after.rows[0] as { state?: string } | undefined)?.state === "retry";
}
