import type { RawQuery } from "@/db/client";
import type { OrderCopy } from "@/db/order-copy";

/**
 * An order webhook event applied in ONE statement (one round trip, its own transaction): claim the event id,
 * read the install, upsert the order behind the updated_at guard, write its items and add the status to the
 * history. It does what claimEvent + upsertOrder do for the poller, and the webhook tests hold it to the same
 * rules:
 * - a redelivered id claims nothing, so nothing else is written (a concurrent copy waits on the unique key until
 *   this statement commits, then sees the id);
 * - a store without an install row keeps only the event id;
 * - an order copy older than (or as old as) the stored one never overwrites it; its items are left alone;
 * - the history gains the announced status even when the order row was newer (history is a set).
 * Data-modifying CTEs all run to completion whether or not the final SELECT reads them.
 */

export type OrderEventInput = {
  eventId: string;
  event: string;
  storeId: number;
  deliveryId: string | null;
  order: OrderCopy;
  /** The status the event announces, and the one before it (null for order.created). */
  status: string;
  previousStatus: string | null;
};

export type OrderEventResult =
  | { claimed: false }
  | { claimed: true; installed: false }
  | { claimed: true; installed: true; outcome: "inserted" | "updated" | "stale" };

const ORDER_COLUMNS = [
  "order_number", "store_seq", "status", "payment_status", "payment_method", "delivery_type", "desk_name",
  "customer_name", "customer_phone", "customer_email", "wilaya_id", "wilaya_name", "commune", "address",
  "subtotal", "shipping_cost", "discount", "total", "promo_code", "customer_notes", "tracking_number",
  "delivery_company", "created_at", "updated_at", "extra", "customer_phone_key", "synced_at",
];

const ITEM_COLUMNS = ["product_id", "variant_id", "product_name", "variant_name", "sku", "price", "quantity", "total", "source"];

/**
 * A data-modifying statement that runs inside the event's own statement, and only when the event was claimed for a
 * store with an install: a follow-up (a job sent for the event, lib/jobs/in-statement.ts) that commits with the
 * event or not at all, in the same one round trip. Built for its place: `param(n)` is how its n-th parameter is
 * written there, and `claimed` a condition it must hold its writes to. It must be a plain INSERT, UPDATE or DELETE
 * (PostgreSQL takes data-modifying statements in WITH only at the top level).
 */
export type EventStatement = (place: { param: (n: number) => string; claimed: string }) => { sql: string; params: unknown[] };

/** Parameters of the statement below; a follow-up's are numbered after them. */
const PARAMETERS = 34;

function applyOrderEventSql(followUp?: string): string {
  return `
with claim as (
  insert into webhook_events (id, event, store_id, delivery_id)
  values ($1::text, $2::text, $3::int, $4::text)
  on conflict (id) do nothing
  returning (select state from installs where store_id = $3::int) as install_state
),
target as (select 1 from claim where install_state is not null),
upserted as (
  insert into orders (store_id, id, ${ORDER_COLUMNS.join(", ")})
  select $3::int, $5::bigint, $6::text, $7::int, $8::text, $9::text, $10::text, $11::text, $12::text,
         $13::text, $14::text, $15::text, $16::int, $17::text, $18::text, $19::text,
         $20::numeric, $21::numeric, $22::numeric, $23::numeric, $24::text, $25::text, $26::text,
         $27::text, $28::timestamptz, $29::timestamptz, $30::jsonb, $34::text, now()
  from target
  on conflict (store_id, id) do update set ${ORDER_COLUMNS.map((column) => `${column} = excluded.${column}`).join(", ")}
  where orders.updated_at < excluded.updated_at
  returning (xmax = 0) as inserted
),
incoming_items as (
  select * from jsonb_to_recordset($31::jsonb) as item(
    position int, product_id bigint, variant_id bigint, product_name text, variant_name text, sku text,
    price numeric, quantity int, total numeric, source text)
),
items_written as (
  insert into order_items (store_id, order_id, position, ${ITEM_COLUMNS.join(", ")})
  select $3::int, $5::bigint, item.position, ${ITEM_COLUMNS.map((column) => `item.${column}`).join(", ")}
  from incoming_items as item, upserted
  on conflict (store_id, order_id, position) do update set ${ITEM_COLUMNS.map((column) => `${column} = excluded.${column}`).join(", ")}
  returning 1
),
items_trimmed as (
  delete from order_items
  where store_id = $3::int and order_id = $5::bigint and $31::jsonb is not null
    and position >= (select count(*) from incoming_items)
    and exists (select 1 from upserted where not inserted)
  returning 1
),
history as (
  insert into order_status_history (store_id, order_id, status, previous_status, changed_at, event_id)
  select $3::int, $5::bigint, $32::text, $33::text, $29::timestamptz, $1::text from target
  on conflict (store_id, order_id, status) do nothing
  returning 1
)${followUp ? `,
follow_up as (
${followUp}
)` : ""}
select (select count(*) from claim)::int as claimed,
       (select count(*) from target)::int as installed,
       (select inserted from upserted) as inserted,
       (select count(*) from items_written)::int + (select count(*) from items_trimmed)::int
         + (select count(*) from history)::int as writes`;
}

export const APPLY_ORDER_EVENT_SQL = applyOrderEventSql();

/** The statement with a follow-up, per follow-up text: the same text each time, so it is prepared once a connection. */
const withFollowUp = new Map<string, string>();

function statementWith(followUp: string): string {
  let text = withFollowUp.get(followUp);
  if (!text) {
    // A handful of follow-up texts at most (one per job kind); the bound is against a caller that varies it.
    if (withFollowUp.size >= 100) withFollowUp.clear();
    withFollowUp.set(followUp, (text = applyOrderEventSql(followUp)));
  }
  return text;
}

function parameters(input: OrderEventInput): unknown[] {
  const { order } = input;
  const items =
    order.items === null
      ? null
      : JSON.stringify(
          order.items.map((item, position) => ({
            position,
            product_id: item.productId,
            variant_id: item.variantId,
            product_name: item.productName,
            variant_name: item.variantName,
            sku: item.sku,
            price: item.price,
            quantity: item.quantity,
            total: item.total,
            source: item.source,
          })),
        );
  return [
    input.eventId, input.event, input.storeId, input.deliveryId,
    order.id, order.orderNumber, order.storeSeq, order.status, order.paymentStatus, order.paymentMethod,
    order.deliveryType, order.deskName, order.customerName, order.customerPhone, order.customerEmail,
    order.wilayaId, order.wilayaName, order.commune, order.address,
    order.subtotal, order.shippingCost, order.discount, order.total, order.promoCode, order.customerNotes,
    order.trackingNumber, order.deliveryCompany, order.createdAt.toISOString(), order.updatedAt.toISOString(),
    Object.keys(order.extra).length > 0 ? JSON.stringify(order.extra) : null,
    items, input.status, input.previousStatus, order.customerPhoneKey,
  ];
}

type Row = { claimed: number; installed: number; inserted: boolean | null };

export async function applyOrderEvent(
  query: RawQuery,
  input: OrderEventInput,
  options: { deadlineMs?: number; followUp?: EventStatement } = {},
): Promise<OrderEventResult> {
  const { deadlineMs, followUp } = options;
  let text = APPLY_ORDER_EVENT_SQL;
  let params = parameters(input);
  if (followUp) {
    const built = followUp({ param: (n) => `$${PARAMETERS + n}`, claimed: "exists (select 1 from target)" });
    text = statementWith(built.sql);
    params = [...params, ...built.params];
  }
  const [row] = await query<Row>(text, params, { deadlineMs });
  if (!row || row.claimed === 0) return { claimed: false };
  if (row.installed === 0) return { claimed: true, installed: false };
  const outcome = row.inserted === null ? "stale" : row.inserted ? "inserted" : "updated";
  return { claimed: true, installed: true, outcome };
}
