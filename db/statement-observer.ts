/**
 * What every statement of the raw paths (rawQuery, transactionQuery, withStatementDeadline) runs inside: the app's
 * timing and tracing (lib/observability/database.ts timeStatement), handed in by lib/database/open.ts, so the ground
 * floor knows nothing of telemetry. Until one is handed in, a statement just runs.
 */
export type StatementObserver = <T>(text: string, run: () => Promise<T>) => Promise<T>;

const passThrough: StatementObserver = (_text, run) => run();
let current: StatementObserver = passThrough;

export function observeStatements(observer: StatementObserver): void {
  current = observer;
}

export function observed<T>(text: string, run: () => Promise<T>): Promise<T> {
  return current(text, run);
}
