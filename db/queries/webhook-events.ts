import { and, eq, inArray, lt, sql } from "drizzle-orm";
import { rowsOf, type DbOrTx } from "@/db/client";
import { installs, webhookEvents } from "@/db/schema";

export type RecordEventInput = {
  id: string;
  event: string;
  storeId: number;
  deliveryId?: string | null;
  receivedAt?: Date;
};

/** The claim itself: a row only for an id not seen before, so what the insert returns tells the two apart. */
function insertEventUnlessSeen(db: DbOrTx, input: RecordEventInput) {
  return db
    .insert(webhookEvents)
    .values({
      id: input.id,
      event: input.event,
      storeId: input.storeId,
      deliveryId: input.deliveryId ?? null,
      ...(input.receivedAt ? { receivedAt: input.receivedAt } : {}),
    })
    .onConflictDoNothing({ target: webhookEvents.id });
}

/**
 * Claims an event id. Run inside the transaction that applies the event: a concurrent copy of the same event
 * blocks on the unique key until this transaction ends, then sees the row and reports a duplicate; if this
 * transaction rolls back, the copy claims it instead. So each event applies exactly once across instances.
 */
export async function recordEvent(db: DbOrTx, input: RecordEventInput): Promise<"applied" | "duplicate"> {
  const inserted = await insertEventUnlessSeen(db, input).returning({ id: webhookEvents.id });
  return inserted.length > 0 ? "applied" : "duplicate";
}

/**
 * recordEvent plus, in the same round trip, the state of the store's install (null when the store has none):
 * the receiver needs both before applying an event, and every round trip inside the transaction holds a
 * connection longer.
 */
export async function claimEvent(
  db: DbOrTx,
  input: RecordEventInput,
): Promise<{ outcome: "applied" | "duplicate"; installState: string | null }> {
  const inserted = await insertEventUnlessSeen(db, input).returning({
    id: webhookEvents.id,
    installState: sql<string | null>`(select ${installs.state} from ${installs} where ${installs.storeId} = ${input.storeId})`,
  });
  const row = inserted[0];
  return row ? { outcome: "applied", installState: row.installState ?? null } : { outcome: "duplicate", installState: null };
}

export async function findEvent(db: DbOrTx, id: string) {
  const [row] = await db.select().from(webhookEvents).where(eq(webhookEvents.id, id)).limit(1);
  return row ?? null;
}

/**
 * The stores that hold event ids, read by skipping through the (store_id, received_at) key: one probe a store, not a
 * scan of every id (a loose index scan, which PostgreSQL does not plan on its own).
 */
export async function storesWithEvents(db: DbOrTx): Promise<number[]> {
  const result = await db.execute(sql`
    with recursive stores as (
      (select ${webhookEvents.storeId} as store_id from ${webhookEvents} order by ${webhookEvents.storeId} limit 1)
      union all
      select (select next.store_id from ${webhookEvents} as next where next.store_id > stores.store_id order by next.store_id limit 1)
      from stores where stores.store_id is not null
    )
    select store_id from stores where store_id is not null`);
  return rowsOf<{ store_id: number | string }>(result).map((row) => Number(row.store_id));
}

/**
 * Forgets at most `limit` of one store's event ids older than `before`, found through the store's key, and says how
 * many. The platform retries a delivery for under three hours, so ids kept for the retention period are far past any
 * redelivery.
 */
export async function deleteStoreEventsBefore(db: DbOrTx, storeId: number, before: Date, limit: number): Promise<number> {
  const due = db
    .select({ id: webhookEvents.id })
    .from(webhookEvents)
    .where(and(eq(webhookEvents.storeId, storeId), lt(webhookEvents.receivedAt, before)))
    .limit(limit);
  const deleted = await db.delete(webhookEvents).where(inArray(webhookEvents.id, due)).returning({ id: webhookEvents.id });
  return deleted.length;
}

export async function deleteEventsOfStores(db: DbOrTx, storeIds: number[]): Promise<number> {
  if (storeIds.length === 0) return 0;
  const deleted = await db
    .delete(webhookEvents)
    .where(inArray(webhookEvents.storeId, storeIds))
    .returning({ id: webhookEvents.id });
  return deleted.length;
}
