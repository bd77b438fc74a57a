import { log, redact } from "@/lib/log";
import { recordRequestError } from "./metrics";
import { traceFields } from "./trace";

/**
 * Every server error Next reports (instrumentation.ts's onRequestError) comes here, once. What leaves: the route's
 * pattern (/stores/[storeId]/orders, never the path with its values or query), the kind, the request id, Next's
 * digest (the code the error page shows the merchant), and the error's name and message through the logger's
 * redaction. Never headers, cookies, query strings, bodies or stacks with their messages unredacted.
 *
 * By default the report is a log line (level error). A vendor is plugged in with setErrorReporter (docs/operations.md
 * shows Sentry in a few lines); it receives the same report and an Error carrying only the redacted message and the
 * stack's frames.
 */

export type ErrorKind = "render" | "route" | "action" | "proxy";

export type ErrorReport = {
  /** The route's pattern as Next names it, e.g. /stores/[storeId]/orders or /api/webhooks. */
  route: string;
  kind: ErrorKind;
  method: string;
  requestId: string | null;
  /** Next's digest: the code shown on the error page, to find this report from a merchant's screenshot. */
  digest: string | null;
  /** Name and redacted message (lib/log.ts redact). */
  error: unknown;
  renderSource?: string;
  trace_id?: string;
};

/** Receives each report. May be async; a reporter that throws is logged and never breaks the request. */
export type ErrorReporter = (report: ErrorReport, error: Error) => void | Promise<void>;

type NextRequestInfo = Readonly<{ path: string; method: string; headers: NodeJS.Dict<string | string[]> }>;
type NextErrorContext = Readonly<{ routePath: string; routeType: ErrorKind; renderSource?: string }>;

const REPORTERS = Symbol.for("store-app-starter.error-reporters");
const holder = globalThis as unknown as Record<symbol, ErrorReporter[] | undefined>;

/**
 * Adds a vendor's reporter beside the log line. Call it from instrumentation.ts's register(), so it is set before
 * the first request (it is kept on globalThis: instrumentation and the routes are separate bundles). Returns an undo.
 */
export function setErrorReporter(reporter: ErrorReporter): () => void {
  const reporters = (holder[REPORTERS] ??= []);
  reporters.push(reporter);
  return () => {
    const index = reporters.indexOf(reporter);
    if (index >= 0) reporters.splice(index, 1);
  };
}

const PLAUSIBLE_ID = /^[A-Za-z0-9._:-]{8,128}$/;

function header(headers: NodeJS.Dict<string | string[]>, name: string): string | null {
  const value = headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first !== undefined && PLAUSIBLE_ID.test(first) ? first : null;
}

/** An Error a vendor may keep: the redacted message, and the stack's frames (file and line, no values). */
export function sanitizedError(error: unknown): Error {
  const described = redact(error) as { name?: unknown; message?: unknown } | string;
  const name = typeof described === "object" && typeof described.name === "string" ? described.name : "Error";
  const message = typeof described === "object" && typeof described.message === "string" ? described.message : "non-Error thrown";
  const safe = new Error(message);
  safe.name = name;
  const frames = error instanceof Error && typeof error.stack === "string" ? error.stack.split("\n").filter((line) => /^\s+at /.test(line)) : [];
  safe.stack = [`${name}: ${message}`, ...frames].join("\n");
  return safe;
}

export function buildErrorReport(error: unknown, request: NextRequestInfo, context: NextErrorContext): ErrorReport {
  const digest = (error as { digest?: unknown } | null)?.digest;
  return {
    route: context.routePath,
    kind: context.routeType,
    method: request.method,
    requestId: header(request.headers, "x-request-id"),
    digest: typeof digest === "string" ? digest.slice(0, 64) : null,
    error: redact(error),
    renderSource: context.renderSource,
    ...traceFields(),
  };
}

/** instrumentation.ts's onRequestError. */
export async function reportRequestError(error: unknown, request: NextRequestInfo, context: NextErrorContext): Promise<void> {
  const report = buildErrorReport(error, request, context);
  recordRequestError(report.kind);
  log.error("request failed", { ...report });
  const reporters = holder[REPORTERS] ?? [];
  if (reporters.length === 0) return;
  const safe = sanitizedError(error);
  await Promise.all(
    reporters.map(async (reporter) => {
      try {
        await reporter(report, safe);
      } catch (failure) {
        log.warn("error reporter failed", { error: failure });
      }
    }),
  );
}
