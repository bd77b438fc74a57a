import type { PgBoss } from "pg-boss";
import type { FollowUp } from "@/lib/webhooks/handlers";
import { inTransaction } from "./in-transaction";
import { JOB } from "./queues";
import type { NewOrderJob } from "./runtime";

/**
 * The jobs webhooks lead to, per event name. Each runs in the transaction that claims the event id, so its job is
 * sent exactly once per event: a redelivery finds the id claimed and sends nothing, a rollback sends nothing.
 * The example: order.created sends a "new order" job (lib/jobs/runtime.ts logs it). docs/jobs.md adds one.
 */
export function webhookFollowUps(boss: PgBoss): Partial<Record<string, FollowUp>> {
  return {
    "order.created": async (tx, event) => {
      if (event.kind !== "order") return;
      const job: NewOrderJob = { storeId: event.storeId, orderId: event.order.id, eventId: event.id };
      await boss.send(JOB.newOrder, job, { db: inTransaction(tx) });
    },
  };
}
