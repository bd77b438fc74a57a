import "server-only";
import type { z } from "zod";
import { PlatformError } from "./errors";

/** Parses a platform answer with its schema; a mismatch is a protocol error that names the first bad field. */
export function parseAnswer<S extends z.ZodType>(schema: S, data: unknown, what: string, requestId: string | null = null): z.output<S> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.join(".")}` : "";
  throw new PlatformError({
    kind: "protocol",
    status: null,
    code: "invalid_response",
    message: `The platform's ${what} did not have the documented shape${where}: ${issue?.message ?? "unknown problem"}.`,
    requestId,
  });
}

/** Input this app refuses before any call (a bad id would otherwise become part of a URL path). */
export function invalidInput(field: string, message: string): PlatformError {
  return new PlatformError({
    kind: "local",
    status: null,
    code: "invalid_input",
    message: `${field} ${message}`,
    fieldErrors: { [field]: [message] },
  });
}

export function assertId(field: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) throw invalidInput(field, "must be a positive integer");
  return value;
}
