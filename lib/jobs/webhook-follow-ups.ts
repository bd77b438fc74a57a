import type { PgBoss } from "pg-boss";
import type { FollowUp } from "@/lib/webhooks/handlers";
import type { WebhookEvent } from "@/lib/webhooks/envelope";
import { inTransaction } from "./in-transaction";
import { jobInStatement } from "./in-statement";
import { JOB, type JobName } from "./queues";
import type { NewOrderJob } from "./runtime";

/**
 * The jobs webhooks lead to, per event name. Each is sent with the claim of the event id, so its job is sent
 * exactly once per event: a redelivery finds the id claimed and sends nothing, a rollback sends nothing.
 * The example: order.created sends a "new order" job (lib/jobs/runtime.ts logs it). docs/jobs.md adds one.
 */
export function webhookFollowUps(boss: PgBoss): Partial<Record<string, FollowUp>> {
  return {
    "order.created": sendsJob(boss, JOB.newOrder, (event): NewOrderJob | null =>
      event.kind === "order" ? { storeId: event.storeId, orderId: event.order.id, eventId: event.id } : null,
    ),
  };
}

/**
 * A follow-up that sends one job for an event (none when `job` answers null). For an order event the job's insert
 * goes inside the event's own claim-and-apply statement (lib/jobs/in-statement.ts), so the event still takes one
 * round trip; for the other events, or a send that cannot be written that way, it is sent in the claim's
 * transaction.
 */
export function sendsJob<T extends object>(boss: PgBoss, name: JobName, job: (event: WebhookEvent) => T | null): FollowUp {
  const send: FollowUp = async (tx, event) => {
    const data = job(event);
    if (data) await boss.send(name, data, { db: inTransaction(tx) });
  };
  send.inStatement = async (event) => {
    const data = job(event);
    return data ? jobInStatement(boss, name, data) : null;
  };
  return send;
}
