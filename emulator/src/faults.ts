import type { IncomingMessage } from "node:http";
import type { EmulatorContext } from "./http/types";
import { runtime, type Fault } from "./runtime";

export type { Fault } from "./runtime";

const FAULT_STATUSES = [429, 500, 502, 503] as const;

/** Only the app's outbound calls can be faulted: the REST API and the token endpoint. */
export function isFaultablePath(pathname: string): boolean {
  return pathname === "/v1" || pathname.startsWith("/v1/") || pathname === "/oauth/apps/token";
}

export class FaultInputError extends Error {
  override name = "FaultInputError";
}

/** Validates the control API's `faults` array into queued faults (times defaults to 1). */
export function parseFaults(input: unknown): Fault[] {
  if (!Array.isArray(input) || input.length === 0) throw new FaultInputError("faults must be a non-empty array");
  return input.map((raw, index): Fault => {
    if (!raw || typeof raw !== "object") throw new FaultInputError(`faults[${index}] must be an object`);
    const item = raw as Record<string, unknown>;
    const times = item.times === undefined ? 1 : item.times;
    if (typeof times !== "number" || !Number.isInteger(times) || times < 1) {
      throw new FaultInputError(`faults[${index}].times must be a positive integer`);
    }
    const filter: { times: number; method?: string; pathPrefix?: string } = { times };
    if (item.method !== undefined) {
      if (typeof item.method !== "string") throw new FaultInputError(`faults[${index}].method must be a string`);
      filter.method = item.method.toUpperCase();
    }
    if (item.pathPrefix !== undefined) {
      if (typeof item.pathPrefix !== "string") throw new FaultInputError(`faults[${index}].pathPrefix must be a string`);
      filter.pathPrefix = item.pathPrefix;
    }
    switch (item.kind) {
      case "status": {
        const status = item.status;
        if (!FAULT_STATUSES.includes(status as (typeof FAULT_STATUSES)[number])) {
          throw new FaultInputError(`faults[${index}].status must be one of ${FAULT_STATUSES.join(", ")}`);
        }
        const fault: Fault = { kind: "status", status: status as (typeof FAULT_STATUSES)[number], ...filter };
        if (item.retryAfter !== undefined) {
          if (typeof item.retryAfter !== "number" || item.retryAfter < 0) {
            throw new FaultInputError(`faults[${index}].retryAfter must be a number of seconds`);
          }
          fault.retryAfter = Math.ceil(item.retryAfter);
        }
        return fault;
      }
      case "slow": {
        if (typeof item.delayMs !== "number" || item.delayMs < 0 || item.delayMs > 120_000) {
          throw new FaultInputError(`faults[${index}].delayMs must be between 0 and 120000`);
        }
        return { kind: "slow", delayMs: item.delayMs, ...filter };
      }
      case "drop":
        return { kind: "drop", ...filter };
      case "commit-then-drop":
        return { kind: "commit-then-drop", ...filter };
      default:
        throw new FaultInputError(`faults[${index}].kind must be status, drop, slow or commit-then-drop`);
    }
  });
}

export function queueFaults(ctx: EmulatorContext, faults: Fault[]): number {
  runtime(ctx).faults.push(...faults);
  return runtime(ctx).faults.length;
}

export function clearFaults(ctx: EmulatorContext): void {
  runtime(ctx).faults = [];
}

/** The first queued fault matching this call, consumed by one use. */
export function takeFault(ctx: EmulatorContext, method: string, pathname: string): Fault | null {
  if (!isFaultablePath(pathname)) return null;
  const faults = runtime(ctx).faults;
  const index = faults.findIndex(
    (fault) =>
      (fault.method === undefined || fault.method === method) &&
      (fault.pathPrefix === undefined || pathname.startsWith(fault.pathPrefix)),
  );
  if (index === -1) return null;
  const fault = faults[index]!;
  fault.times -= 1;
  if (fault.times <= 0) faults.splice(index, 1);
  return fault;
}

/**
 * A `slow` fault on /v1 waits inside the pipeline, after the idempotency lookup and before the operation runs, so
 * two slow requests with one key really overlap (the spec's rule 7: both run).
 */
const deferredDelays = new WeakMap<IncomingMessage, number>();

export function deferDelay(raw: IncomingMessage, delayMs: number): void {
  deferredDelays.set(raw, delayMs);
}

export function takeDeferredDelay(raw: IncomingMessage): number {
  const delay = deferredDelays.get(raw) ?? 0;
  deferredDelays.delete(raw);
  return delay;
}
