import { and, eq, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { orderBackfills, orderSyncState, type OrderBackfill } from "@/db/schema";
import { preparedPerDb } from "./prepared";

/** A store's order import: its saved cursor and progress (lib/jobs/backfill.ts holds the rules). */

const backfillOfStore = preparedPerDb((db) =>
  db.select().from(orderBackfills).where(eq(orderBackfills.storeId, sql.placeholder("storeId"))).limit(1).prepare("find_backfill"),
);

/** Read by every store page (its import notice): a prepared query. */
export async function findBackfill(db: DbOrTx, storeId: number): Promise<OrderBackfill | null> {
  const [row] = await backfillOfStore(db).execute({ storeId });
  return row ?? null;
}

/** Starts a new import from the first page (an install or re-install): a new run id retires any older chunk. */
export async function startBackfillRow(db: DbOrTx, input: { storeId: number; runId: string; at: Date }): Promise<void> {
  const fresh = {
    runId: input.runId,
    status: "running",
    cursor: null,
    pages: 0,
    imported: 0,
    newestCreatedAt: null,
    lastError: null,
    startedAt: input.at,
    finishedAt: null,
    updatedAt: input.at,
  };
  await db
    .insert(orderBackfills)
    .values({ storeId: input.storeId, ...fresh })
    .onConflictDoUpdate({ target: orderBackfills.storeId, set: fresh });
}

/**
 * Records one stored page and where the next starts: only for the run that read it, and only from the cursor the
 * page was read from (`from`, null for the first page), a compare-and-set in the one UPDATE. Two chunks that read
 * the same page (a retried job overlapping the one it retried) cannot both count it, and one that saves late cannot
 * move the cursor back: the second finds the cursor already moved on (a concurrent one waits on the row and then
 * re-reads it). False when the run was retired or another chunk saved from that cursor first.
 */
export async function savePage(
  db: DbOrTx,
  input: { storeId: number; runId: string; from: string | null; cursor: string | null; imported: number; newest: Date | null; at: Date },
): Promise<boolean> {
  const rows = await db
    .update(orderBackfills)
    .set({
      cursor: input.cursor,
      pages: sql`${orderBackfills.pages} + 1`,
      imported: sql`${orderBackfills.imported} + ${input.imported}`,
      newestCreatedAt: sql`greatest(${orderBackfills.newestCreatedAt}, ${input.newest?.toISOString() ?? null}::timestamptz)`,
      lastError: null,
      updatedAt: input.at,
    })
    .where(
      and(
        eq(orderBackfills.storeId, input.storeId),
        eq(orderBackfills.runId, input.runId),
        eq(orderBackfills.status, "running"),
        input.from === null ? isNull(orderBackfills.cursor) : eq(orderBackfills.cursor, input.from),
      ),
    )
    .returning({ storeId: orderBackfills.storeId });
  return rows.length > 0;
}

/**
 * The import read its last page: it is done, and only now does the polling mark move up to the newest order it
 * saw (every order below it is stored). Called inside the transaction that stores that last page (savePage), so
 * the page, the finish and the mark commit together: a failure or a kill at that moment leaves the run at its
 * last saved cursor, never at "no cursor, still running", which a retry would read as the first page.
 */
export async function finishBackfill(tx: DbOrTx, input: { storeId: number; runId: string; at: Date }): Promise<boolean> {
  const [row] = await tx
    .update(orderBackfills)
    .set({ status: "done", cursor: null, finishedAt: input.at, lastError: null, updatedAt: input.at })
    .where(and(eq(orderBackfills.storeId, input.storeId), eq(orderBackfills.runId, input.runId), eq(orderBackfills.status, "running")))
    .returning();
  if (!row) return false;
  const mark = row.newestCreatedAt?.toISOString() ?? null;
  await tx
    .insert(orderSyncState)
    .values({ storeId: input.storeId, sinceCursor: row.newestCreatedAt, lastSyncedAt: input.at, lastError: null, updatedAt: input.at })
    .onConflictDoUpdate({
      target: orderSyncState.storeId,
      set: {
        sinceCursor: sql`greatest(${orderSyncState.sinceCursor}, ${mark}::timestamptz)`,
        lastSyncedAt: input.at,
        lastError: null,
        updatedAt: input.at,
      },
    });
  return true;
}

/**
 * A short, secret-free reason for one run; with `failed` the retries ran out and the merchant is offered a retry.
 * Only that run, and only while it runs: an older run's failure never touches the run a re-install started.
 */
export async function noteBackfillError(
  db: DbOrTx,
  input: { storeId: number; runId: string; error: string; failed: boolean; at: Date },
): Promise<void> {
  await db
    .update(orderBackfills)
    .set({ lastError: input.error, updatedAt: input.at, ...(input.failed ? { status: "failed" } : {}) })
    .where(and(eq(orderBackfills.storeId, input.storeId), eq(orderBackfills.runId, input.runId), eq(orderBackfills.status, "running")));
}

/** The merchant asked to try a failed import again: it goes on from its saved cursor. */
export async function resumeBackfillRow(db: DbOrTx, input: { storeId: number; at: Date }): Promise<OrderBackfill | null> {
  const [row] = await db
    .update(orderBackfills)
    .set({ status: "running", lastError: null, updatedAt: input.at })
    .where(and(eq(orderBackfills.storeId, input.storeId), eq(orderBackfills.status, "failed")))
    .returning();
  return row ?? null;
}
