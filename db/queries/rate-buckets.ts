import { sql } from "drizzle-orm";
import { rowsOf, type Db, type DbOrTx } from "@/db/client";

/**
 * Request budgets shared by every app instance (table rate_buckets: one row per bucket and clock minute).
 * A slot is taken with one atomic upsert whose update only applies while `used < limit`, so two instances can
 * never both take the last slot.
 */

export type Slot = { bucket: string; windowStart: Date; limit: number };

export type ReserveResult =
  | { ok: true; /** Slots that opened a new window row (first use of that bucket this minute). */ opened: Slot[] }
  | { ok: false; full: Slot };

class BucketFull extends Error {
  constructor(readonly slot: Slot) {
    super("rate bucket full");
  }
}

/**
 * Takes one slot in every given bucket-window, or none of them. Locks are taken in one global order (window, then
 * bucket name), so concurrent reservations of overlapping buckets cannot deadlock.
 */
export async function reserveSlots(db: Db, slots: Slot[]): Promise<ReserveResult> {
  const ordered = [...slots].sort(
    (a, b) => a.windowStart.getTime() - b.windowStart.getTime() || (a.bucket < b.bucket ? -1 : a.bucket > b.bucket ? 1 : 0),
  );
  try {
    const opened = await db.transaction(async (tx) => {
      const openedSlots: Slot[] = [];
      for (const slot of ordered) {
        const used = await takeSlot(tx, slot);
        if (used === null) throw new BucketFull(slot);
        if (used === 1) openedSlots.push(slot);
      }
      return openedSlots;
    });
    return { ok: true, opened };
  } catch (error) {
    if (error instanceof BucketFull) return { ok: false, full: error.slot };
    throw error;
  }
}

/** One slot of one bucket-window; returns the new count, or null when the window is already full. */
export async function takeSlot(db: DbOrTx, slot: Slot): Promise<number | null> {
  const result = await db.execute(sql`
    insert into rate_buckets (bucket, window_start, used)
    values (${slot.bucket}, ${slot.windowStart.toISOString()}::timestamptz, 1)
    on conflict (bucket, window_start) do update set used = rate_buckets.used + 1
    where rate_buckets.used < ${slot.limit}
    returning used`);
  const row = rowsOf<{ used: number | string }>(result)[0];
  return row === undefined ? null : Number(row.used);
}

/**
 * Marks a window as spent (after the platform answered 429 despite our count, e.g. because other keys of the
 * store share its budget), so every instance waits for the next minute instead of meeting more 429s.
 */
export async function saturateSlot(db: DbOrTx, slot: Slot): Promise<void> {
  await db.execute(sql`
    insert into rate_buckets (bucket, window_start, used)
    values (${slot.bucket}, ${slot.windowStart.toISOString()}::timestamptz, ${slot.limit})
    on conflict (bucket, window_start) do update set used = greatest(rate_buckets.used, excluded.used)`);
}

export async function slotUsage(db: DbOrTx, bucket: string, windowStart: Date): Promise<number> {
  const result = await db.execute(sql`
    select used from rate_buckets where bucket = ${bucket} and window_start = ${windowStart.toISOString()}::timestamptz`);
  const row = rowsOf<{ used: number | string }>(result)[0];
  return row === undefined ? 0 : Number(row.used);
}

/**
 * Deletes windows that ended before `before`. Called when a bucket opens a new minute, so the table holds only a
 * few minutes of rows per active bucket and the unindexed scan stays tiny. The install flow's budgets (buckets
 * named `oauth:…`) count over longer windows and are left to deleteOAuthBucketsBefore.
 */
export async function deleteRateBucketsBefore(db: DbOrTx, before: Date): Promise<number> {
  const result = await db.execute(sql`
    delete from rate_buckets where window_start < ${before.toISOString()}::timestamptz
    and bucket not like ${`${OAUTH_BUCKET_PREFIX}%`} returning 1 as gone`);
  return rowsOf(result).length;
}

/** Buckets of the install flow's budgets (lib/oauth/install-budget.ts) start with this. */
export const OAUTH_BUCKET_PREFIX = "oauth:";

/** Deletes the install flow's budget windows that started before `before`. */
export async function deleteOAuthBucketsBefore(db: DbOrTx, before: Date): Promise<number> {
  const result = await db.execute(sql`
    delete from rate_buckets where window_start < ${before.toISOString()}::timestamptz
    and bucket like ${`${OAUTH_BUCKET_PREFIX}%`} returning 1 as gone`);
  return rowsOf(result).length;
}

/** Slots used in one bucket per window, for the windows starting in [from, to). */
export async function windowUsage(db: DbOrTx, bucket: string, from: Date, to: Date): Promise<Map<number, number>> {
  const result = await db.execute(sql`
    select window_start, used from rate_buckets where bucket = ${bucket}
    and window_start >= ${from.toISOString()}::timestamptz and window_start < ${to.toISOString()}::timestamptz`);
  return new Map(
    rowsOf<{ window_start: Date | string; used: number | string }>(result).map((row) => [new Date(row.window_start).getTime(), Number(row.used)]),
  );
}

/**
 * The database's clock: every instance reads the same one, so budget windows agree at a minute's edge whatever
 * the instances' own clocks say.
 */
export async function databaseClock(db: DbOrTx): Promise<Date> {
  const result = await db.execute(sql`select now() as now`);
  return new Date(rowsOf<{ now: Date | string }>(result)[0]!.now);
}
