import type { Job, JobResult, JobWithMetadata, PgBoss } from "pg-boss";
import type { DatabaseHandle } from "@/db/client";
import { log as rootLogger, type Logger } from "@/lib/log";
import { recordJobRun } from "@/lib/observability/metrics";
import { withSpan } from "@/lib/observability/trace";
import { platformFor, type PlatformOptions } from "@/lib/platform";
import { pollableStoreIds, syncStoreOrders } from "@/lib/sync/orders-sync";
import { purgeUninstalledStores } from "@/lib/webhooks/retention";
import { recordChunkFailure, runBackfillChunk, type BackfillJob } from "./backfill";
import { startBoss } from "./boss";
import { failAbandonedImports } from "./drain-lease";
import { JOB, SCHEDULES, type JobName } from "./queues";

/**
 * A job worker: one pg-boss instance that works every queue of lib/jobs/queues.ts on this process. Run inside the
 * app (npm run dev, a single `next start`), alone (npm run worker), or for a while per cron call (/api/cron/jobs).
 */

export type WorkerOptions = {
  /** Keep the cron schedules (one poll fan-out a minute, the daily retention). */
  schedule?: boolean;
  /** Options of the platform client the jobs use (another base URL in tests). */
  platform?: Omit<PlatformOptions, "db">;
  /** Stores polled or imported at once by this process; each store's calls are paced by its own budget. */
  concurrency?: number;
  /**
   * Import chunks this process runs at once (default: half of `concurrency`, at least 1). Polls are due every
   * minute and imports are not: an install wave's imports, given every loop, delayed the polls of every store
   * (docs/benchmarks.md, polling during an install wave), so they get a share and the poll loops keep theirs.
   */
  importConcurrency?: number;
  /**
   * Poll jobs each of the `concurrency` poll loops takes at once (one store each, polled side by side). A loop whose
   * batch came back full fetches again at once; otherwise it waits `pollingIntervalSeconds`.
   */
  pollBatchSize?: number;
  logger?: Logger;
  /**
   * How often an idle loop looks for a job when nothing wakes it (default 2 s): every loop of a queue without
   * `notify`, and every loop while LISTEN is not available.
   */
  pollingIntervalSeconds?: number;
  /**
   * How often an idle loop of a queue with `notify` looks anyway, for what no NOTIFY announces: a retry whose delay
   * ended, a crashed worker's job given back. Default IDLE_POLLING_SECONDS, or `pollingIntervalSeconds` when only
   * that is given (tests keep their cadence).
   */
  idlePollingSeconds?: number;
  /** Hold a LISTEN connection (default true); false for a worker that lives one cron call. */
  listen?: boolean;
  superviseIntervalSeconds?: number;
  /** Pages per backfill job (tests use fewer). */
  backfillChunkPages?: number;
  backfillPageSize?: number;
  /** Told of every job this worker starts, and of every one it finished (the cron route reports them). */
  onJobStart?: (name: JobName) => void;
  onJobDone?: (name: JobName, ok: boolean) => void;
  /** Run once the engine is up and before any queue is worked (a drain takes back what an ended drain left). */
  beforeWork?: (boss: PgBoss) => Promise<void>;
};

/**
 * The idle check of a queue whose jobs wake the workers (lib/jobs/queues.ts `notify`). With every loop polling every
 * 2 s, an idle app sent about 7 statements a second to its database, day and night (600,000 a day): enough to keep a
 * managed database that sleeps when idle from ever sleeping. See docs/jobs.md.
 */
export const IDLE_POLLING_SECONDS = 10;

/** The example follow-up of an order.created webhook (lib/webhooks: sent with the event's dedup row). */
export type NewOrderJob = { storeId: number; orderId: number; eventId: string };

export type JobWorker = {
  boss: PgBoss;
  /** Stops taking jobs; a running backfill hands its store back at the next page. Within `timeoutMs`. */
  stop(timeoutMs?: number): Promise<void>;
};

export async function startWorker(handle: DatabaseHandle, options: WorkerOptions = {}): Promise<JobWorker> {
  const logger = (options.logger ?? rootLogger).with({ component: "jobs" });
  const boss = await startBoss(handle, {
    supervise: true,
    schedule: options.schedule ?? false,
    superviseIntervalSeconds: options.superviseIntervalSeconds,
    listen: options.listen ?? true,
  });
  const db = handle.db;
  try {
    await options.beforeWork?.(boss);
  } catch (error) {
    await boss.stop({ graceful: false, close: true });
    throw error;
  }
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const pollingIntervalSeconds = options.pollingIntervalSeconds ?? 2;
  const idlePollingSeconds = options.idlePollingSeconds ?? options.pollingIntervalSeconds ?? IDLE_POLLING_SECONDS;
  const polling = {
    pollingIntervalSeconds,
    // Used by pg-boss only for a queue with `notify` while its LISTEN connection is up; never below the base poll.
    notifyPollingIntervalSeconds: Math.max(pollingIntervalSeconds, idlePollingSeconds),
    batchSize: 1,
  };
  const stopping = new AbortController();
  const counted =
    <A extends unknown[], R>(name: JobName, handler: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      withSpan("job.run", { "job.kind": name }, async () => {
        options.onJobStart?.(name);
        const started = performance.now();
        try {
          const result = await handler(...args);
          recordJobRun(name, true, (performance.now() - started) / 1000);
          options.onJobDone?.(name, true);
          return result;
        } catch (error) {
          recordJobRun(name, false, (performance.now() - started) / 1000);
          options.onJobDone?.(name, false);
          throw error;
        }
      });

  const importChunk = counted(JOB.backfill, async (job: JobWithMetadata<BackfillJob>) => {
    const signal = AbortSignal.any([job.signal, stopping.signal]);
    try {
      const outcome = await runBackfillChunk(
        {
          db,
          boss,
          logger,
          signal,
          pages: (storeId) => platformFor(storeId, { ...options.platform, db }).orders,
          chunkPages: options.backfillChunkPages,
          pageSize: options.backfillPageSize,
        },
        job.data,
      );
      return { outcome };
    } catch (error) {
      // The last attempt's failure is the merchant's to see (and retry); earlier ones only wait for the engine's.
      const final = job.retryCount >= job.retryLimit;
      const detail = await recordChunkFailure(db, error, final).catch(() => "unrecorded failure");
      logger.warn("order import chunk failed", { storeId: job.data.storeId, attempt: job.retryCount + 1, final, error: detail });
      throw new Error(detail);
    }
  });
  // Imports are taken `importConcurrency` at a time by one loop, run side by side, and a batch that came back full
  // is followed at once by the next. Taken one at a time, a loop waited out the idle check (10 s) after each chunk
  // unless a new job's NOTIFY woke it: after an install wave of 1,000 stores its imports finished about 30 a
  // minute, and a store whose import had not begun is not polled (lib/sync/orders-sync.ts), so half the stores went
  // unlisted for minutes (docs/benchmarks.md, polling during an install wave). A loop of one job bursts on the
  // engine's cached backlog instead, which lags by up to a minute.
  const importConcurrency = Math.max(1, options.importConcurrency ?? Math.floor(concurrency / 2));
  await boss.work(
    JOB.backfill,
    {
      ...polling,
      includeMetadata: true,
      batchSize: importConcurrency,
      ...(importConcurrency > 1 ? { burstWhenBatchFull: true } : { burstWhenReadyExceeds: 1 }),
      perJobResults: true,
    },
    eachJob<JobWithMetadata<BackfillJob>>(importChunk),
  );

  // A poll is mostly waiting on the platform, so each loop takes a batch of stores and polls them side by side: one
  // store a loop would leave the worker idle between fetches (tooling/bench/polling-scale.ts measures the rate). Each
  // job keeps its own outcome; the stately queue still holds one poll per store.
  const pollBatchSize = Math.max(1, options.pollBatchSize ?? POLL_BATCH_SIZE);
  await boss.work<{ storeId: number }>(
    JOB.poll,
    { ...polling, batchSize: pollBatchSize, burstWhenBatchFull: true, localConcurrency: concurrency, perJobResults: true },
    eachJob<Job<{ storeId: number }>>(
      async (job) => {
        options.onJobStart?.(JOB.poll);
        const result = await syncStoreOrders(db, job.data.storeId, { platform: options.platform, logger });
        // A failed poll is recorded on the store (order_sync_state.last_error); the next minute's poll tries again.
        options.onJobDone?.(JOB.poll, true);
        return { outcome: result.outcome, fetched: result.fetched };
      },
      (job, message) => {
        options.onJobDone?.(JOB.poll, false);
        logger.warn("order poll failed", { storeId: job.data.storeId, error: message });
      },
    ),
  );

  await boss.work(JOB.pollFanOut, polling, counted(JOB.pollFanOut, async () => {
    const storeIds = await pollableStoreIds(db);
    await fanOutPolls(boss, storeIds);
    return { stores: storeIds.length };
  }));

  await boss.work(JOB.retention, polling, counted(JOB.retention, async () => {
    const result = await purgeUninstalledStores(db);
    logger.info("retention purge", { stores: result.storeIds.length, orders: result.orders, events: result.events, sessions: result.sessions });
    return { stores: result.storeIds.length, orders: result.orders, events: result.events, sessions: result.sessions };
  }));

  // One job per order.created webhook, so as many as the store has orders: taken NEW_ORDER_BATCH_SIZE at a time, and
  // a batch that came back full is followed at once by the next. One at a time, each job cost a fetch and a
  // completion statement and the loop then waited the 2 s polling interval, so more than one order every 2 s grew
  // the queue for as long as it lasted. Each job keeps its own outcome (perJobResults): one that throws is failed
  // and retried alone, the rest of its batch completes.
  const newOrder = counted(JOB.newOrder, async (job: Job<NewOrderJob>) => {
    // The example follow-up of a webhook: replace with the app's own work (a message, a label, an export).
    logger.info("new order received", { storeId: job.data.storeId, orderId: job.data.orderId, eventId: job.data.eventId });
  });
  await boss.work<NewOrderJob>(
    JOB.newOrder,
    { ...polling, batchSize: NEW_ORDER_BATCH_SIZE, burstWhenBatchFull: true, perJobResults: true },
    eachJob<Job<NewOrderJob>>(newOrder, (job, message) =>
      logger.warn("new order job failed", { storeId: job.data.storeId, eventId: job.data.eventId, attempt: job.retryCount + 1, error: message }),
    ),
  );

  // The long-running worker that keeps the schedules also shows the merchant an import whose last attempt the
  // engine failed without our handler (killed at its heartbeat or expiry): failed, with the retry. A drain does it
  // at its end (lib/jobs/drain.ts).
  let abandonedCheck: ReturnType<typeof setInterval> | undefined;
  if (options.schedule) {
    for (const { name, cron } of SCHEDULES) await boss.schedule(name, cron, null, { tz: "UTC" });
    abandonedCheck = setInterval(() => {
      failAbandonedImports(db).catch((error: unknown) => logger.warn("abandoned import check failed", { error: error instanceof Error ? error.message : "unknown" }));
    }, ABANDONED_IMPORT_CHECK_MS);
    abandonedCheck.unref();
  }

  return {
    boss,
    async stop(timeoutMs = 8_000) {
      clearInterval(abandonedCheck);
      stopping.abort();
      await boss.stop({ graceful: true, timeout: timeoutMs, close: true });
    },
  };
}

/**
 * A batch handler (`perJobResults`) that runs each job of the batch side by side and keeps each one's outcome: what
 * `run` returns is the job's output, and a job whose `run` throws is failed alone (and retried by the engine), after
 * `onFailure` is told why; the rest of its batch completes.
 */
function eachJob<J extends { id: string }>(run: (job: J) => Promise<object | void>, onFailure?: (job: J, message: string) => void) {
  return (jobs: J[]): Promise<JobResult[]> =>
    Promise.all(
      jobs.map(async (job): Promise<JobResult> => {
        try {
          const output = await run(job);
          return output ? { id: job.id, status: "completed", output } : { id: job.id, status: "completed" };
        } catch (error) {
          const message = error instanceof Error ? error.message : "unknown error";
          onFailure?.(job, message);
          return { id: job.id, status: "failed", output: { message } };
        }
      }),
    );
}

/** How often the scheduling worker looks for imports whose job the engine failed for good. */
const ABANDONED_IMPORT_CHECK_MS = 60_000;

/** New-order jobs a worker takes at once (one per order.created webhook). */
export const NEW_ORDER_BATCH_SIZE = 50;
/** Poll jobs each poll loop of a worker takes at once (WorkerOptions.pollBatchSize). */
export const POLL_BATCH_SIZE = 10;
/** Poll jobs written by one statement of the fan-out. */
const FAN_OUT_CHUNK = 500;

/**
 * One poll job per store; a store whose poll already waits gets none (stately queue, keyed by store: the insert
 * skips a job the queue's unique index refuses). Written a few hundred to a statement: one send per store took
 * most of a minute for 10,000 stores.
 */
export async function fanOutPolls(boss: PgBoss, storeIds: readonly number[]): Promise<void> {
  for (let start = 0; start < storeIds.length; start += FAN_OUT_CHUNK) {
    const chunk = storeIds.slice(start, start + FAN_OUT_CHUNK);
    await boss.insert(JOB.poll, chunk.map((storeId) => ({ data: { storeId }, singletonKey: String(storeId) })));
  }
}

/**
 * What a cron call starts with on a host without a long-running worker: this minute's poll fan-out and, at most
 * once a day, the retention purge (pg-boss's singleton window keeps repeats out).
 */
export async function sendDueWork(boss: PgBoss): Promise<void> {
  await boss.send(JOB.pollFanOut, null, { singletonKey: "minute", singletonSeconds: 50 });
  await boss.send(JOB.retention, null, { singletonKey: "day", singletonSeconds: 24 * 60 * 60 });
}
