/**
 * What every statement of the raw paths (rawQuery, transactionQuery, withStatementDeadline) runs inside: the app's
 * timing and tracing (lib/observability/database.ts timeStatement), handed in by lib/database/open.ts, so the ground
 * floor knows nothing of telemetry. Until one is handed in, a statement just runs.
 *
 * Kept on globalThis, not in this module: a production build bundles instrumentation.ts (which opens the database)
 * and each route apart, each with its own copy of this module, and a route wraps the shared handle in its own
 * statement deadline. An observer set in one copy must be the one every copy runs.
 */
export type StatementObserver = <T>(text: string, run: () => Promise<T>) => Promise<T>;

const OBSERVER = Symbol.for("store-app-starter.statement-observer");
type WithObserver = typeof globalThis & { [OBSERVER]?: StatementObserver };

export function observeStatements(observer: StatementObserver): void {
  (globalThis as WithObserver)[OBSERVER] = observer;
}

export function observed<T>(text: string, run: () => Promise<T>): Promise<T> {
  const observer = (globalThis as WithObserver)[OBSERVER];
  return observer ? observer(text, run) : run();
}
