import { createHmac, timingSafeEqual } from "node:crypto";
import postgres from "postgres";

/**
 * The floor webhook receiver of `npm run bench`: the least a correct receiver does, written plainly. Raw body,
 * HMAC over `<t>.<body>`, the 5-minute timestamp window, then the event id insert (dedup) and the order upsert
 * (newer updated_at wins) in one postgres.js transaction. The reference app's route and the bench's bare
 * node:http server both run this same function, so their difference is the framework alone.
 */

export type FloorAnswer = { status: number; body: string };

const TOLERANCE_SECONDS = 300;

export type FloorReceiver = (rawBody: Buffer, signature: string | null, timestamp: string | null) => Promise<FloorAnswer>;

export function floorReceiver(databaseUrl: string, secret: string): FloorReceiver {
  const sql = postgres(databaseUrl, { max: 10, onnotice: () => {} });
  return async (rawBody, signature, timestamp) => {
    const t = signature?.match(/(?:^|,)t=(\d+)/)?.[1];
    const v1 = signature?.match(/(?:^|,)v1=([0-9a-f]{64})/)?.[1];
    if (!t || !v1 || t !== timestamp) return { status: 401, body: '{"ok":false}' };
    if (Math.abs(Date.now() / 1000 - Number(t)) > TOLERANCE_SECONDS) return { status: 401, body: '{"ok":false}' };
    const expected = createHmac("sha256", secret).update(`${t}.`).update(rawBody).digest();
    if (!timingSafeEqual(expected, Buffer.from(v1, "hex"))) return { status: 401, body: '{"ok":false}' };

    const event = JSON.parse(rawBody.toString("utf8")) as {
      id: string;
      event: string;
      store_id: number;
      data: { order: Record<string, string | number | null> };
    };
    const o = event.data.order;
    const duplicate = await sql.begin(async (tx) => {
      const claimed = await tx`
        insert into webhook_events (id, event, store_id) values (${event.id}, ${event.event}, ${event.store_id})
        on conflict (id) do nothing returning id`;
      if (claimed.length === 0) return true;
      await tx`
        insert into orders (store_id, id, order_number, status, customer_name, customer_phone, wilaya_name, total,
                            created_at, updated_at)
        values (${event.store_id}, ${o.id!}, ${o.order_number!}, ${o.status!}, ${o.customer_name ?? null},
                ${o.customer_phone ?? null}, ${o.wilaya_name ?? null}, ${o.total ?? null}, ${o.created_at!}, ${o.updated_at!})
        on conflict (store_id, id) do update set status = excluded.status, total = excluded.total,
          updated_at = excluded.updated_at
        where orders.updated_at < excluded.updated_at`;
      return false;
    });
    return { status: 200, body: duplicate ? '{"ok":true,"duplicate":true}' : '{"ok":true}' };
  };
}
