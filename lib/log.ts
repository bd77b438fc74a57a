/**
 * Structured logging. JSON lines in production (one object per line, for log collectors), readable lines in
 * development. Secrets are redacted by construction: sensitive keys are never printed, and anything shaped like
 * a platform token or secret is masked wherever it appears in a value, so a careless call cannot leak one.
 */

type Level = "debug" | "info" | "warn" | "error";
export type LogFields = Record<string, unknown>;

const LEVELS: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

const SENSITIVE_KEY = /token|secret|password|passwd|authorization|cookie|verifier|api[-_]?key|encryption|^code$|signature/i;
const SECRET_VALUE = /\b(svcpk_live_|svcas_|svcwhsec_)[A-Za-z0-9_-]+/g;

export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return value.replace(SECRET_VALUE, "$1[redacted]");
  if (value instanceof Error) {
    return { name: value.name, message: redact(value.message, depth + 1) };
  }
  if (depth > 5 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([key, inner]) => [
      key,
      SENSITIVE_KEY.test(key) && inner !== null && inner !== undefined && typeof inner !== "boolean"
        ? "[redacted]"
        : redact(inner, depth + 1),
    ]),
  );
}

function threshold(): number {
  const configured = process.env.LOG_LEVEL as Level | undefined;
  return LEVELS[configured && configured in LEVELS ? configured : process.env.NODE_ENV === "test" ? "warn" : "info"];
}

function jsonOutput(): boolean {
  return process.env.LOG_FORMAT === "json" || (process.env.LOG_FORMAT !== "pretty" && process.env.NODE_ENV === "production");
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
  if (LEVELS[level] < threshold()) return;
  const safe = redact(fields) as LogFields;
  const safeMessage = redact(message) as string;
  if (jsonOutput()) {
    logSink(JSON.stringify({ time: new Date().toISOString(), level, msg: safeMessage, ...safe }), level);
    return;
  }
  const details = Object.entries(safe)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`)
    .join(" ");
  logSink(`${level.toUpperCase().padEnd(5)} ${safeMessage}${details ? "  " + details : ""}`, level);
}

export type Logger = {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** A logger whose lines all carry these fields (request id, install id, event id...). */
  with(fields: LogFields): Logger;
};

function createLogger(bound: LogFields): Logger {
  return {
    debug: (message, fields = {}) => write("debug", message, { ...bound, ...fields }),
    info: (message, fields = {}) => write("info", message, { ...bound, ...fields }),
    warn: (message, fields = {}) => write("warn", message, { ...bound, ...fields }),
    error: (message, fields = {}) => write("error", message, { ...bound, ...fields }),
    with: (fields) => createLogger({ ...bound, ...fields }),
  };
}

export const log: Logger = createLogger({});
