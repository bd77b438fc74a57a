import { env } from "@/lib/env";
import { traceFields } from "@/lib/observability/trace";

/**
 * Structured logging. JSON lines in production (one object per line, for log collectors), readable lines in
 * development. Secrets are redacted by construction: values under sensitive keys are never printed, and anything
 * shaped like a platform token, a client secret, a bearer header, a password in a URL or an OAuth code in a query
 * string is masked wherever it appears in a value, so a careless call cannot leak one.
 *
 * Conventional field names, so lines can be joined across services: requestId, storeId, installId, eventId,
 * deliveryId, platformRequestId.
 */

export type Level = "debug" | "info" | "warn" | "error";
export type LogFields = Record<string, unknown>;
export type LogFormat = "json" | "pretty";

const LEVELS: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

const SENSITIVE_KEY =
  /token|secret|password|passwd|passphrase|authorization|cookie|session|verifier|api[-_]?key|encryption|credential|private|^code$|signature/i;

const REDACTED = "[redacted]";

/** Masks applied to every string that reaches a line. Order matters: the URL rules run before the token rule. */
const VALUE_MASKS: [RegExp, string][] = [
  // user:password@ in any URL (database URLs above all).
  [/(\/\/[^/\s:@]+:)[^@\s/]+@/g, `$1${REDACTED}@`],
  // OAuth and token material passed in a query string or a form body.
  [/([?&](?:code|code_verifier|access_token|client_secret|state|token)=)[^&\s#"']+/gi, `$1${REDACTED}`],
  // Authorization header values.
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g, `$1 ${REDACTED}`],
  // The platform's secret shapes: install tokens, client secrets, webhook signing secrets. No word boundary:
  // "x_svcpk_live_..." must be masked too.
  [/(svcpk_live_|svcas_|svcwhsec_)[A-Za-z0-9_-]+/g, `$1${REDACTED}`],
];

function maskString(value: string): string {
  return VALUE_MASKS.reduce((text, [pattern, replacement]) => text.replace(pattern, replacement), value);
}

/**
 * drizzle's query errors read "Failed query: <SQL>\nparams: <values>": the values are customers' data (a phone
 * filter, an address). The statement is kept out as well: the cause that follows says what failed.
 */
const FAILED_QUERY = /^Failed query:[\s\S]*$/;

function withoutQuery(message: string): string {
  return FAILED_QUERY.test(message) ? "Failed query (statement and parameters withheld from logs)" : message;
}

const MAX_DEPTH = 6;

/** A copy of `value` that is safe to print. Exported for tests and for code that must show a value elsewhere. */
export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return maskString(value);
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "function" || typeof value === "symbol") return undefined;
  if (value === null || typeof value !== "object") return value;
  // Past this depth nothing is inspected, so nothing is printed either (and cycles end here).
  if (depth >= MAX_DEPTH) return "[truncated]";
  if (value instanceof Error) return describeError(value, depth);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "Invalid Date" : value.toISOString();
  if (value instanceof URL) return maskString(value.toString());
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return `[binary ${value.byteLength} bytes]`;
  if (value instanceof Map) return redact(Object.fromEntries(value), depth);
  if (value instanceof Set) return redact([...value], depth);
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([key, inner]) => [
      key,
      SENSITIVE_KEY.test(key) && inner !== null && inner !== undefined && typeof inner !== "boolean"
        ? REDACTED
        : redact(inner, depth + 1),
    ]),
  );
}

/** Name, message and the few typed fields worth reading; never the stack, never arbitrary own properties. */
function describeError(error: Error, depth: number): Record<string, unknown> {
  const described: Record<string, unknown> = { name: error.name, message: withoutQuery(maskString(error.message)) };
  const typed = error as Error & { kind?: unknown; status?: unknown; code?: unknown; requestId?: unknown };
  if (typeof typed.kind === "string") described.kind = typed.kind;
  if (typeof typed.status === "number") described.status = typed.status;
  if (typeof typed.code === "string") described.errorCode = maskString(typed.code);
  if (typeof typed.requestId === "string") described.platformRequestId = maskString(typed.requestId);
  if (error.cause !== undefined && depth + 1 < MAX_DEPTH) described.cause = redact(error.cause, depth + 1);
  return described;
}

type Settings = { level?: Level; format?: LogFormat };
let overrides: Settings = {};

/** For tests and scripts: force a level or a format regardless of the environment. Returns an undo function. */
export function configureLog(settings: Settings): () => void {
  const previous = overrides;
  overrides = { ...overrides, ...settings };
  return () => {
    overrides = previous;
  };
}

/**
 * The logger must keep working when the environment itself is invalid (that is exactly when the server logs
 * its most important line), so a failing env read falls back to safe defaults.
 */
function environment(): { nodeEnv: string; level: Level | undefined } {
  try {
    return { nodeEnv: env.NODE_ENV, level: env.LOG_LEVEL };
  } catch {
    return { nodeEnv: "production", level: undefined };
  }
}

function threshold(): number {
  if (overrides.level) return LEVELS[overrides.level];
  const { nodeEnv, level } = environment();
  // Tests stay quiet unless configureLog lowers the level (LOG_LEVEL always has a value, so it cannot tell).
  return LEVELS[nodeEnv === "test" ? "warn" : (level ?? "info")];
}

function format(): LogFormat {
  return overrides.format ?? (environment().nodeEnv === "production" ? "json" : "pretty");
}

/** Where lines go; tests swap it to capture output. */
export let logSink: (line: string, level: Level) => void = (line, level) => {
  (level === "error" || level === "warn" ? process.stderr : process.stdout).write(line + "\n");
};

export function setLogSink(sink: typeof logSink): () => void {
  const previous = logSink;
  logSink = sink;
  return () => {
    logSink = previous;
  };
}

function write(level: Level, message: string, fields: LogFields): void {
  const safe = { ...(redact(fields) as LogFields), ...traceFields() };
  const safeMessage = maskString(message);
  if (format() === "json") {
    // The fixed keys come last so a field can never overwrite them.
    logSink(JSON.stringify({ ...safe, time: new Date().toISOString(), level, msg: safeMessage }), level);
    return;
  }
  const details = Object.entries(safe)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`)
    .join(" ");
  // One event, one line: a newline in a message must not forge a second entry.
  const line = `${level.toUpperCase().padEnd(5)} ${safeMessage}${details ? "  " + details : ""}`;
  logSink(line.replace(/\r?\n/g, "\\n"), level);
}

export type Logger = {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /**
   * A logger whose lines all carry these fields (request id, install id, event id...). Given a function, the
   * fields are computed once, at the first line written: a hot path that usually writes nothing builds nothing.
   */
  with(fields: LogFields | (() => LogFields)): Logger;
};

/** Whether a line at this level would be written: lets a hot path skip building the fields of a line no one reads. */
function logs(level: Level): boolean {
  return LEVELS[level] >= threshold();
}

function createLogger(bound: () => LogFields): Logger {
  // The level is checked before any field is built or merged: a line below the threshold costs one comparison.
  const line = (level: Level) => (message: string, fields?: LogFields) => {
    if (logs(level)) write(level, message, fields ? { ...bound(), ...fields } : bound());
  };
  return {
    debug: line("debug"),
    info: line("info"),
    warn: line("warn"),
    error: line("error"),
    with: (fields) => {
      let merged: LogFields | undefined;
      return createLogger(() => (merged ??= { ...bound(), ...(typeof fields === "function" ? fields() : fields) }));
    },
  };
}

export const log: Logger = createLogger(() => ({}));
