import { sql } from "drizzle-orm";
import type { PgBoss } from "pg-boss";
import { rowsOf, type Db } from "@/db/client";
import { JOB_SCHEMA } from "./boss";
import { JOB, WORKED_QUEUES } from "./queues";

/**
 * The one drain of a serverless host (JOBS_WORKER=requests): who works the job queue, and what a page view may ask.
 * Rows of `job_drain` (db/schema.ts), and pg-boss's own job table read directly where the engine has no call for it.
 *
 * A lease rather than a session advisory lock: behind a pooler in transaction mode a session lock is held by
 * whichever client the pooler gave the connection to next, and a drain whose function the platform froze or killed
 * would keep it as long as the connection lives. A lease ends by itself at its holder's time limit.
 */

const DRAIN = "drain";

/** The queues a worker of this app works, as SQL: a job in any other queue is no drain's to wait for. */
const WORKED = sql.raw(WORKED_QUEUES.map((name) => `'${name.replace(/'/g, "''")}'`).join(", "));
const JOBS = sql.raw(`${JOB_SCHEMA}.job`);

/**
 * Takes the lease until `until` (the holder's own time limit, counted from its route's start), unless another drain
 * holds it now. True when this holder has it.
 */
export async function takeDrainLease(db: Db, holder: string, until: Date): Promise<boolean> {
  const result = await db.execute(sql`
    insert into job_drain (name, holder, held_until) values (${DRAIN}, ${holder}, ${until.toISOString()}::timestamptz)
    on conflict (name) do update set holder = excluded.holder, held_until = excluded.held_until
    where job_drain.held_until <= now()
    returning holder`);
  return rowsOf<{ holder: string }>(result)[0]?.holder === holder;
}

/** Ends this holder's lease now (a later drain may start at once). Nothing when another holds it. */
export async function endDrainLease(db: Db, holder: string): Promise<void> {
  await db.execute(sql`update job_drain set held_until = now(), holder = null where name = ${DRAIN} and holder = ${holder}`);
}

/**
 * A page view's question, in one statement: should this view ask for a drain? Yes only when no drain holds the
 * lease, the app's own queues have work a drain would take (a job ready now, or one still marked active that no
 * drain is running any more), and no other view asked within `quietMs`; the answer claims the ask, so of a burst
 * of views one asks.
 */
export async function claimDrainAsk(db: Db, quietMs: number): Promise<boolean> {
  const result = await db.execute(sql`
    insert into job_drain (name, holder, held_until, asked_at)
    select ${DRAIN}, null, '-infinity'::timestamptz, now()
    where exists (
      select 1 from ${JOBS}
      where name in (${WORKED}) and ((state in ('created', 'retry') and start_after <= now()) or state = 'active')
    )
    on conflict (name) do update set asked_at = now()
    where job_drain.held_until <= now()
      and (job_drain.asked_at is null or job_drain.asked_at <= now() - ${quietMs} * interval '1 millisecond')
    returning name`);
  return rowsOf<{ name: string }>(result).length > 0;
}

/** Jobs of the app's own queues a worker could take now: new ones and due retries, not those waiting for later. */
export async function readyJobs(db: Db): Promise<number> {
  const result = await db.execute(
    sql`select count(*)::int as n from ${JOBS} where name in (${WORKED}) and state in ('created', 'retry') and start_after <= now()`,
  );
  return Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
}

/**
 * Run by a drain that has just taken the lease on a host where only drains work the queue (JOBS_WORKER=requests):
 * a job of the app's queues still marked active was started by an earlier drain, which is gone (its lease ended
 * at its time limit, when the platform kills a function). Each is failed as an attempt (so a chunk that always
 * outlives its function ends failed for good, with the merchant's retry) and, with retries left, made due at once
 * rather than after its retry delay: a backfill chunk resumes from its saved cursor. Without this the job waited
 * for its heartbeat to be missed and for a worker long enough to supervise it, which a drain is not.
 */
export async function takeBackOrphans(db: Db, boss: PgBoss): Promise<number> {
  const result = await db.execute(sql`select id, name from ${JOBS} where name in (${WORKED}) and state = 'active'`);
  const orphans = rowsOf<{ id: string; name: string }>(result);
  for (const orphan of orphans) {
    await boss.fail(orphan.name, orphan.id, { message: "taken back: the drain that ran it ended before it" });
  }
  if (orphans.length > 0) {
    const ids = sql.join(orphans.map((orphan) => sql`${orphan.id}::uuid`), sql`, `);
    await db.execute(sql`update ${JOBS} set start_after = now() where id in (${ids}) and state = 'retry'`);
  }
  return orphans.length;
}

/**
 * An import whose job has failed for good without our handler seeing it (killed on its last attempt: the engine
 * failed it at its heartbeat or expiry, or a drain took it back) would stay `running` with no job behind it, and
 * the merchant would never see the retry. Marks such runs failed: a running row with no live job of its store.
 * The run is matched by its id, so a re-install's new run, started meanwhile, is never the one marked.
 */
export async function failAbandonedImports(db: Db, at = new Date()): Promise<number[]> {
  const result = await db.execute(sql`
    with abandoned as (
      select b.store_id, b.run_id from order_backfills b
      where b.status = 'running' and not exists (
        select 1 from ${JOBS} j
        where j.name = ${JOB.backfill} and j.singleton_key = b.store_id::text and j.state in ('created', 'retry', 'active')
      )
    )
    update order_backfills b
    set status = 'failed', last_error = coalesce(b.last_error, 'the import stopped: its last attempt did not finish'), updated_at = ${at.toISOString()}::timestamptz
    from abandoned a
    where b.store_id = a.store_id and b.run_id = a.run_id and b.status = 'running'
    returning b.store_id`);
  return rowsOf<{ store_id: number }>(result).map((row) => Number(row.store_id));
}
