import type { PgBoss } from "pg-boss";
import type { Db } from "@/db/client";
import { activeJobs, claimDrainAsk as claimAsk, countReadyJobs, failImportsWithoutJob, jobTable, makeRetriesDueNow } from "@/db/queries/job-drain";
import { JOB_SCHEMA } from "./boss";
import { JOB, WORKED_QUEUES } from "./queues";

/**
 * The one drain of a serverless host (JOBS_WORKER=requests): who works the job queue, and what a page view may ask.
 * The statements are db/queries/job-drain.ts's; this module decides which jobs count and what is done with them.
 *
 * A lease rather than a session advisory lock: behind a pooler in transaction mode a session lock is held by
 * whichever client the pooler gave the connection to next, and a drain whose function the platform froze or killed
 * would keep it as long as the connection lives. A lease ends by itself at its holder's time limit (`until`, the
 * holder's own, counted from its route's start).
 */
export { endDrainLease, takeDrainLease } from "@/db/queries/job-drain";

/** The queues a worker of this app works: a job in any other queue is no drain's to wait for. */
const APP_JOBS = jobTable(JOB_SCHEMA, WORKED_QUEUES);
/** The order import's queue alone: a running import with no job there has stopped. */
const IMPORT_JOBS = jobTable(JOB_SCHEMA, [JOB.backfill]);

/**
 * A page view's question: should this view ask for a drain? Yes only when no drain holds the lease, the app's own
 * queues have work a drain would take (a job ready now, or one still marked active that no drain is running any
 * more), and no other view asked within `quietMs`; the answer claims the ask, so of a burst of views one asks.
 */
export function claimDrainAsk(db: Db, quietMs: number): Promise<boolean> {
  return claimAsk(db, APP_JOBS, quietMs);
}

/** Jobs of the app's own queues a worker could take now: new ones and due retries, not those waiting for later. */
export function readyJobs(db: Db): Promise<number> {
  return countReadyJobs(db, APP_JOBS);
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
  const orphans = await activeJobs(db, APP_JOBS);
  for (const orphan of orphans) {
    await boss.fail(orphan.name, orphan.id, { message: "taken back: the drain that ran it ended before it" });
  }
  await makeRetriesDueNow(db, APP_JOBS, orphans.map((orphan) => orphan.id));
  return orphans.length;
}

/**
 * An import whose job has failed for good without our handler seeing it (killed on its last attempt: the engine
 * failed it at its heartbeat or expiry, or a drain took it back) would stay `running` with no job behind it, and
 * the merchant would never see the retry. Marks such runs failed: a running row with no live job of its store.
 * The run is matched by its id, so a re-install's new run, started meanwhile, is never the one marked.
 */
export function failAbandonedImports(db: Db, at = new Date()): Promise<number[]> {
  return failImportsWithoutJob(db, IMPORT_JOBS, at);
}
