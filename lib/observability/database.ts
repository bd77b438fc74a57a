import { statementEnded, statementStarted } from "./metrics";
import { tracingEnabled, withSpan } from "./trace";

/** The statement's first keyword (SELECT, INSERT, WITH...), for a span's name without its values. */
export function sqlOperation(text: string): string {
  return /^\s*([a-z]+)/i.exec(text)?.[1]?.toUpperCase() ?? "SQL";
}

/**
 * One statement on a request path, timed by the app (postgres.js has no OpenTelemetry hooks, porsager/postgres
 * #461): the in-flight gauge and the duration histogram always; a span when tracing is on. The span carries the
 * statement's text, whose values are parameters (drizzle and the raw hot paths never inline them), never the values.
 */
export function timeStatement<T>(text: string, run: () => Promise<T>): Promise<T> {
  const startedAt = performance.now();
  statementStarted();
  const work = tracingEnabled()
    ? withSpan(`db ${sqlOperation(text)}`, { "db.system.name": "postgresql", "db.operation.name": sqlOperation(text), "db.query.text": text.slice(0, 2000) }, run)
    : run();
  return work.finally(() => statementEnded((performance.now() - startedAt) / 1000));
}
