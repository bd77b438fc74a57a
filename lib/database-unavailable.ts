import { DatabaseDeadlineError, isConnectionFailure } from "@/db/client";

/**
 * Whether an error means the app's own database is not answering (stopped, crashed, unreachable, or past the
 * request deadline of db/statement-deadline.ts), as opposed to a statement that failed or a bug. drizzle wraps what the driver
 * throws in a DrizzleQueryError, so the causes are followed too. Pages turn a true answer into
 * components/database-unavailable.tsx; anything else goes on to the error boundary.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  // A few levels are enough (drizzle adds one); a cycle of causes must not loop forever.
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current instanceof DatabaseDeadlineError || current.name === "DatabaseDeadlineError" || isConnectionFailure(current)) return true;
    current = current.cause;
  }
  return false;
}

const MAX_RETRY_PATH_LENGTH = 2_048;

/**
 * The page's own path and query (proxy.ts's x-app-request-path) for the Try again link, when it is a path of this
 * app: never another origin (`//host`, `/\host`), never anything but a path. Else `fallback`.
 */
export function retryPath(requestPath: string | null | undefined, fallback: string): string {
  if (!requestPath || requestPath.length > MAX_RETRY_PATH_LENGTH) return fallback;
  if (!requestPath.startsWith("/") || requestPath.startsWith("//") || requestPath.startsWith("/\\")) return fallback;
  if (/[\u0000-\u001f\u007f]/.test(requestPath)) return fallback;
  return requestPath;
}
