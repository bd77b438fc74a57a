/**
 * The database layer's front door: what the rest of the app opens, queries and recognises, gathered from the files
 * that each hold one concern. Nothing here reads the environment or knows the job engine: callers pass the
 * connection settings (lib/database/open.ts) and run the whole migration (lib/database/migrate.ts).
 */
export type { DatabaseHandle, Db, DbOrTx } from "./types";
export { imageOfEmbedded, openDatabase, type DatabaseOptions } from "./open";
export { MIGRATIONS_FOLDER } from "./migrate-tables";
export { redactUrl } from "./redact-url";
export { isConnectionFailure } from "./pool-health";
export { DatabaseDeadlineError, REQUEST_DEADLINE_MS } from "./statement-deadline";
export { rawQuery, rowsOf, transactionQuery, type RawQuery } from "./raw-query";
export { withStatementDeadline } from "./with-statement-deadline";
export { observeStatements, type StatementObserver } from "./statement-observer";
