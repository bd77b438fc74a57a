import type { EmulatorContext } from "./http/types";

/**
 * State that is deliberately not persisted: rate-limit counters, queued faults and the analytics cache. A restart or
 * a reset clears them, like a platform whose counters live in memory. Kept beside the context (not on it) so the
 * shared EmulatorContext type stays as agreed.
 */
export type FaultFilter = { times: number; method?: string; pathPrefix?: string };
export type Fault =
  | ({ kind: "status"; status: 429 | 500 | 502 | 503; retryAfter?: number } & FaultFilter)
  | ({ kind: "drop" } & FaultFilter)
  | ({ kind: "slow"; delayMs: number } & FaultFilter)
  | ({ kind: "commit-then-drop" } & FaultFilter);

export type Runtime = {
  faults: Fault[];
  /** Fixed per-minute windows: bucket key -> { minute, count }. */
  minuteWindows: Map<string, { minute: number; count: number }>;
  /** Sliding windows for the OAuth endpoints: bucket key -> hit times (ms). */
  oauthHits: Map<string, number[]>;
  analyticsCache: Map<string, { storedAt: number; data: unknown }>;
  /** Added to every /v1 answer (ms of real time), as the real platform's ~300 ms per call. */
  apiLatencyMs: number;
  /** Every /v1 call since recording was turned on (null: not recording). */
  apiCalls: ApiCall[] | null;
};

/** One /v1 call as the platform saw it: real-time start and end (ms since the epoch), for overlap and lag checks. */
export type ApiCall = { storeId: number | null; method: string; path: string; status: number; startedAt: number; endedAt: number };

const runtimes = new WeakMap<EmulatorContext, Runtime>();

export function runtime(ctx: EmulatorContext): Runtime {
  let value = runtimes.get(ctx);
  if (!value) {
    value = freshRuntime();
    runtimes.set(ctx, value);
  }
  return value;
}

export function resetRuntime(ctx: EmulatorContext): void {
  runtimes.set(ctx, freshRuntime());
}

function freshRuntime(): Runtime {
  return { faults: [], minuteWindows: new Map(), oauthHits: new Map(), analyticsCache: new Map(), apiLatencyMs: 0, apiCalls: null };
}
