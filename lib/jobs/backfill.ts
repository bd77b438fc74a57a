import { randomUUID } from "node:crypto";
import type { PgBoss } from "pg-boss";
import type { Db, DbOrTx } from "@/db/client";
import { findBackfill, finishBackfill, noteBackfillError, resumeBackfillRow, savePage, startBackfillRow } from "@/db/queries/backfills";
import { findInstall } from "@/db/queries/installs";
import { upsertOrder } from "@/db/queries/orders";
import type { Logger } from "@/lib/log";
import type { Page, PlatformOrder } from "@/lib/platform";
import { canPoll, describeFailure, SYNC_PAGE_SIZE } from "@/lib/sync/orders-sync";
import { inTransaction } from "./in-transaction";
import { JOB } from "./queues";

/**
 * A store's full order import, as a chain of jobs. Each job reads at most BACKFILL_CHUNK_PAGES pages (well inside
 * the engine's expiry; the queue's heartbeat catches a killed worker), saves the platform's cursor after every
 * page, and sends the next job before it completes. A failure is retried with backoff and goes on from the saved
 * cursor, so a crash costs at most the page in flight. The polling mark moves only when the last page is stored.
 */

/**
 * Only the store: the chunk reads the run it continues from the store's row. A re-install's send while a chunk
 * of the previous run waits is a no-op (one waiting job per store), and that waiting job then starts the new run.
 */
export type BackfillJob = { storeId: number };

/** 20 pages of 50 take about 10 s at the install's 120 calls a minute: minutes below the 15-minute expiry. */
export const BACKFILL_CHUNK_PAGES = 20;

/** What the job needs from the API client: `platformFor(storeId).orders` fits. */
export type OrderPages = { list(params: { limit?: number; cursor?: string }): Promise<Page<PlatformOrder>> };

/** Enqueues a fresh import of each store, inside the caller's transaction (the install's own). */
export async function enqueueBackfills(boss: PgBoss, tx: DbOrTx, storeIds: readonly number[], at = new Date()): Promise<void> {
  for (const storeId of storeIds) {
    await startBackfillRow(tx, { storeId, runId: randomUUID(), at });
    await sendChunk(boss, { storeId }, tx);
  }
}

/** The merchant's retry of a failed import: resumes from the saved cursor. False when there is nothing to retry. */
export async function retryBackfill(boss: PgBoss, db: Db, storeId: number, at = new Date()): Promise<boolean> {
  return db.transaction(async (tx) => {
    const row = await resumeBackfillRow(tx, { storeId, at });
    if (!row) return false;
    await sendChunk(boss, { storeId }, tx);
    return true;
  });
}

async function sendChunk(boss: PgBoss, job: BackfillJob, db?: DbOrTx): Promise<void> {
  // One waiting chunk per store (stately queue); a second send while one waits is a no-op, which is what we want.
  await boss.send(JOB.backfill, job, { singletonKey: String(job.storeId), ...(db ? { db: inTransaction(db) } : {}) });
}

export type ChunkOutcome = "continued" | "done" | "stale" | "skipped";

export type BackfillContext = {
  db: Db;
  boss: PgBoss;
  pages: (storeId: number) => OrderPages;
  logger: Logger;
  chunkPages?: number;
  pageSize?: number;
  /** Aborted when the worker stops: the chunk hands its store back at the next page boundary. */
  signal?: AbortSignal;
  now?: () => Date;
};

/**
 * A chunk's failure, with the run it was working: the failure is that run's, whatever run the store's row holds by
 * the time it is recorded (a re-install meanwhile starts a new one, which the old token's 401 must not fail).
 */
export class ChunkFailure extends Error {
  constructor(
    readonly run: { storeId: number; runId: string },
    readonly reason: unknown,
  ) {
    super(reason instanceof Error ? reason.message : "order import chunk failed", { cause: reason });
    this.name = "ChunkFailure";
  }
}

export async function runBackfillChunk(ctx: BackfillContext, job: BackfillJob): Promise<ChunkOutcome> {
  const row = await findBackfill(ctx.db, job.storeId);
  // Finished, or given up (the merchant's retry sends a new job): nothing to do.
  if (!row || row.status !== "running") return "stale";
  const run = { storeId: job.storeId, runId: row.runId };
  try {
    return await runChunkOf(ctx, row, run);
  } catch (error) {
    throw new ChunkFailure(run, error);
  }
}

async function runChunkOf(
  ctx: BackfillContext,
  row: { cursor: string | null; pages: number },
  run: { storeId: number; runId: string },
): Promise<ChunkOutcome> {
  const job: BackfillJob = { storeId: run.storeId };
  const now = ctx.now ?? (() => new Date());
  const logger = ctx.logger.with({ storeId: job.storeId, job: JOB.backfill });
  const install = await findInstall(ctx.db, job.storeId);
  const unusable = install ? canPoll(install) : "not installed";
  if (unusable) {
    await noteBackfillError(ctx.db, { ...run, error: unusable, failed: true, at: now() });
    logger.info("order import stopped", { reason: unusable });
    return "skipped";
  }
  const source = ctx.pages(job.storeId);
  const pageSize = ctx.pageSize ?? SYNC_PAGE_SIZE;
  const chunkPages = ctx.chunkPages ?? BACKFILL_CHUNK_PAGES;
  let cursor = row.cursor ?? undefined;
  // The next page is asked for while this one is written, so the writes do not eat into the install's budget.
  let pending = source.list({ limit: pageSize, cursor });
  for (let page = 0; page < chunkPages; page++) {
    const result = await pending;
    const next = result.hasMore && result.nextCursor ? result.nextCursor : null;
    if (next !== null && next === cursor) throw new Error("the platform returned the same cursor again");
    const prefetch = next !== null && page + 1 < chunkPages && !ctx.signal?.aborted;
    if (prefetch) {
      pending = source.list({ limit: pageSize, cursor: next });
      // Awaited on the next turn; a failure while this page is written must not go unhandled meanwhile.
      pending.catch(() => undefined);
    }
    // A page's orders and the cursor past them commit together: one commit a page instead of one a statement, and
    // the saved cursor never runs ahead of the stored orders. The last page's commit also finishes the run and moves
    // the polling mark: a failure or a kill between a stored last page and a separate finish left "running, no
    // cursor", which the retry read as the first page.
    const saved = await ctx.db.transaction(async (tx) => {
      let newest: Date | null = null;
      for (const order of result.items) {
        if (order.storeId !== job.storeId) continue;
        await upsertOrder(tx, job.storeId, order);
        if (!newest || order.createdAt > newest) newest = order.createdAt;
      }
      const at = now();
      if (!(await savePage(tx, { ...run, from: cursor ?? null, cursor: next, imported: result.items.length, newest, at }))) return false;
      if (next === null) await finishBackfill(tx, { ...run, at });
      return true;
    });
    // A re-install reset the row meanwhile (that run's own job takes over from the first page), or another chunk of
    // this run saved from the same cursor first (it carries the import on; the orders written here were its too).
    if (!saved) return "stale";
    if (next === null) {
      logger.info("order import done", { pages: row.pages + page + 1 });
      return "done";
    }
    cursor = next;
    if (!prefetch) break;
  }
  await sendChunk(ctx.boss, job);
  return "continued";
}

/**
 * Called when a chunk failed: the reason is shown to the merchant on the run that failed, and `final` (no retry
 * left) marks that run failed. A failure before the chunk read its run (the database) has no run to charge.
 */
export async function recordChunkFailure(db: Db, error: unknown, final: boolean, at = new Date()): Promise<string> {
  const cause = error instanceof ChunkFailure ? error.reason : error;
  const detail = describeFailure(cause);
  if (error instanceof ChunkFailure) await noteBackfillError(db, { ...error.run, error: detail, failed: final, at });
  return detail;
}
