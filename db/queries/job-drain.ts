import { sql, type SQL } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";

/**
 * The one drain of a serverless host: its lease (`job_drain`, db/schema.ts) and the reads and writes of the job
 * engine's own table that the engine has no call for. The engine's schema and the queues that count are the
 * caller's (lib/jobs/drain-lease.ts), as are the rules these statements serve.
 */

/** Some queues of the job engine's table, as SQL: built once by the caller (a page view's ask runs them). */
export type JobTable = { readonly table: SQL; readonly queues: SQL };

export function jobTable(schema: string, queues: readonly string[]): JobTable {
  return { table: sql.raw(`${schema}.job`), queues: sql.raw(queues.map((name) => `'${name.replace(/'/g, "''")}'`).join(", ")) };
}

const DRAIN = "drain";

/** Takes the lease until `until` unless another holder has it now; true when `holder` has it. */
export async function takeDrainLease(db: Db, holder: string, until: Date): Promise<boolean> {
  const result = await db.execute(sql`
    insert into job_drain (name, holder, held_until) values (${DRAIN}, ${holder}, ${until.toISOString()}::timestamptz)
    on conflict (name) do update set holder = excluded.holder, held_until = excluded.held_until
    where job_drain.held_until <= now()
    returning holder`);
  return rowsOf<{ holder: string }>(result)[0]?.holder === holder;
}

/** Ends `holder`'s lease now; nothing when another holds it. */
export async function endDrainLease(db: Db, holder: string): Promise<void> {
  await db.execute(sql`update job_drain set held_until = now(), holder = null where name = ${DRAIN} and holder = ${holder}`);
}

/**
 * Claims the ask for a drain, in one statement: only when no drain holds the lease, the queues have a job ready now
 * or one marked active, and no ask was claimed within `quietMs`. True when this call claimed it.
 */
export async function claimDrainAsk(db: Db, jobs: JobTable, quietMs: number): Promise<boolean> {
  const result = await db.execute(sql`
    insert into job_drain (name, holder, held_until, asked_at)
    select ${DRAIN}, null, '-infinity'::timestamptz, now()
    where exists (
      select 1 from ${jobs.table}
      where name in (${jobs.queues}) and ((state in ('created', 'retry') and start_after <= now()) or state = 'active')
    )
    on conflict (name) do update set asked_at = now()
    where job_drain.held_until <= now()
      and (job_drain.asked_at is null or job_drain.asked_at <= now() - ${quietMs} * interval '1 millisecond')
    returning name`);
  return rowsOf<{ name: string }>(result).length > 0;
}

/** Jobs of the queues a worker could take now: new ones and due retries, not those waiting for later. */
export async function countReadyJobs(db: Db, jobs: JobTable): Promise<number> {
  const result = await db.execute(
    sql`select count(*)::int as n from ${jobs.table} where name in (${jobs.queues}) and state in ('created', 'retry') and start_after <= now()`,
  );
  return Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
}

/** The queues' jobs marked active. */
export async function activeJobs(db: Db, jobs: JobTable): Promise<{ id: string; name: string }[]> {
  return rowsOf<{ id: string; name: string }>(await db.execute(sql`select id, name from ${jobs.table} where name in (${jobs.queues}) and state = 'active'`));
}

/** Those of `ids` waiting for a retry become due now rather than after their retry delay. */
export async function makeRetriesDueNow(db: Db, jobs: JobTable, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.execute(sql`update ${jobs.table} set start_after = now() where id in (${sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `)}) and state = 'retry'`);
}

/**
 * Marks failed each running import with no live job of its store in `imports` (created, retry or active), matched by
 * its run id so a run started meanwhile is never the one marked. Returns the stores marked.
 */
export async function failImportsWithoutJob(db: Db, imports: JobTable, at: Date): Promise<number[]> {
  const result = await db.execute(sql`
    with abandoned as (
      select b.store_id, b.run_id from order_backfills b
      where b.status = 'running' and not exists (
        select 1 from ${imports.table} j
        where j.name in (${imports.queues}) and j.singleton_key = b.store_id::text and j.state in ('created', 'retry', 'active')
      )
    )
    update order_backfills b
    set status = 'failed', last_error = coalesce(b.last_error, 'the import stopped: its last attempt did not finish'), updated_at = ${at.toISOString()}::timestamptz
    from abandoned a
    where b.store_id = a.store_id and b.run_id = a.run_id and b.status = 'running'
    returning b.store_id`);
  return rowsOf<{ store_id: number }>(result).map((row) => Number(row.store_id));
}
