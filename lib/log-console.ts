import { format } from "node:util";
import { log, type Logger } from "@/lib/log";

/**
 * Next.js and libraries print with console.* (a failed render is `console.error(error)`, whose message may hold a
 * failing SQL statement and its parameters: a customer's phone, an address). In production every such line goes
 * through lib/log instead, so it is redacted, single-line and JSON like the app's own. Development keeps the
 * console as it is: its reader is the developer, who needs Next's stacks and code frames.
 */

type ConsoleMethod = "error" | "warn" | "info" | "log" | "debug";

const LEVEL_OF: Record<ConsoleMethod, keyof Omit<Logger, "with">> = {
  error: "error",
  warn: "warn",
  info: "info",
  log: "info",
  debug: "debug",
};

/** One console call as one log line: the text parts are the message, the first Error travels as `error`. */
export function consoleCallToLine(args: readonly unknown[]): { message: string; fields: Record<string, unknown> } {
  const error = args.find((arg): arg is Error => arg instanceof Error);
  const rest = args.filter((arg) => arg !== error);
  const message = format(...rest).trim() || (error ? "unhandled error" : "");
  return { message, fields: error ? { error, source: "console" } : { source: "console" } };
}

let installed = false;

export function routeConsoleThroughLog(logger: Logger = log): void {
  if (installed) return;
  installed = true;
  for (const method of Object.keys(LEVEL_OF) as ConsoleMethod[]) {
    const level = LEVEL_OF[method];
    console[method] = (...args: unknown[]) => {
      const { message, fields } = consoleCallToLine(args);
      logger[level](message, fields);
    };
  }
}
