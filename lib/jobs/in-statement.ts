import type { Db as IDatabase, PgBoss, SendOptions } from "pg-boss";
import type { EventStatement } from "@/db/queries/order-events";

/**
 * A pg-boss send as part of another statement: the order webhook's claim-and-apply statement carries its follow-up
 * job (db/queries/order-events.ts EventStatement), so the event, its order and its job commit together in one round
 * trip, without a transaction around two statements (begin, the claim, pg-boss's insert, commit: four round trips
 * holding a pool connection, which halved the receiver's throughput).
 *
 * pg-boss writes the job: `send` runs as usual (its checks, its defaults, the queue's settings, its insert
 * statement) against a database that only keeps the statement. That statement is one INSERT … SELECT from
 * `json_to_recordset($1::text::json)`; its one parameter is replaced by the job's JSON when the event was claimed
 * and by NULL otherwise, which inserts no row. A send of any other shape (a later pg-boss, a queue with `notify`,
 * whose insert is wrapped in a WITH of its own) is not rewritten: the answer is null, and the caller sends the job
 * in a transaction instead.
 */
export async function jobInStatement<T extends object>(boss: PgBoss, name: string, data: T, options: SendOptions = {}): Promise<EventStatement | null> {
  const sent: { text: string; values: unknown[] }[] = [];
  const keeper: IDatabase = {
    async executeSql(text, values) {
      sent.push({ text, values: values ?? [] });
      // What the insert would return: pg-boss reads the new job's id from it and sends nothing more.
      return { rows: [{ id: "00000000-0000-0000-0000-000000000000" }] };
    },
  };
  await boss.send(name, data, { ...options, db: keeper });
  const [insert] = sent;
  if (sent.length !== 1 || !insert || insert.values.length !== 1 || !isSingleParameterInsert(insert.text)) return null;
  return ({ param, claimed }) => ({
    sql: insert.text.replace("$1", `(select ${param(1)}::text where ${claimed})`),
    params: insert.values,
  });
}

function isSingleParameterInsert(text: string): boolean {
  return /^\s*insert\s/i.test(text) && (text.match(/\$\d+/g) ?? []).join(",") === "$1";
}
