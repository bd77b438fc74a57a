import "server-only";
import type { Db } from "@/db/client";
import { deleteRateBucketsBefore, reserveSlots, saturateSlot, type Slot } from "@/db/queries/rate-buckets";
import { PlatformError } from "./errors";

/**
 * Keeps every app instance under the platform's per-minute budgets: 120 calls per install and 600 per store, in
 * fixed windows that reset at each clock minute. Each attempt (retries included: the platform counts failed and
 * refused calls too) takes a slot in the shared table before it is sent.
 */

export const MINUTE_MS = 60_000;

export type PacingOptions = {
  perInstall: number;
  perStore: number;
  /**
   * A call sent this close to a minute boundary may be counted by the platform in the neighbouring minute (network
   * latency, clock skew between hosts), so it takes a slot in both windows.
   */
  edgeMs: number;
  /** Longest wait for a free slot; beyond it the call fails with `rate_budget_exhausted` (Infinity: always wait). */
  maxWaitMs: number;
};

export const DEFAULT_PACING: PacingOptions = {
  perInstall: 120,
  perStore: 600,
  edgeMs: 1_000,
  maxWaitMs: Number.POSITIVE_INFINITY,
};

export type PacerDeps = {
  db: Db;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  random?: () => number;
};

export const installBucket = (installId: number) => `install:${installId}`;
export const storeBucket = (storeId: number) => `store:${storeId}`;

export function windowStartOf(ms: number): number {
  return Math.floor(ms / MINUTE_MS) * MINUTE_MS;
}

/** The clock minutes a call sent at `ms` may be counted in. */
export function windowsAround(ms: number, edgeMs: number): number[] {
  const first = windowStartOf(ms - edgeMs);
  const last = windowStartOf(ms + edgeMs);
  return first === last ? [first] : [first, last];
}

export type Pacer = {
  /** Waits until one more call for this install fits every budget, and takes its slot. Returns the ms waited. */
  acquire(installId: number, storeId: number): Promise<number>;
  /**
   * The platform said 429 anyway (other keys share the store budget, or a clock disagrees). When its Retry-After
   * reaches past this minute, mark the install's minute spent so every instance waits instead of meeting 429s too.
   */
  onRateLimited(installId: number, retryAfterMs: number | null): Promise<void>;
};

export function createPacer(deps: PacerDeps, options: Partial<PacingOptions> = {}): Pacer {
  const config = { ...DEFAULT_PACING, ...options };
  const random = deps.random ?? Math.random;

  return {
    async acquire(installId, storeId) {
      const startedAt = deps.now();
      for (;;) {
        const now = deps.now();
        const slots: Slot[] = windowsAround(now, config.edgeMs).flatMap((window) => [
          { bucket: installBucket(installId), windowStart: new Date(window), limit: config.perInstall },
          { bucket: storeBucket(storeId), windowStart: new Date(window), limit: config.perStore },
        ]);
        const result = await reserveSlots(deps.db, slots);
        if (result.ok) {
          const openedInstallWindow = result.opened.find((slot) => slot.bucket === installBucket(installId));
          if (openedInstallWindow) {
            await deleteRateBucketsBefore(deps.db, new Date(openedInstallWindow.windowStart.getTime() - 2 * MINUTE_MS));
          }
          return now - startedAt;
        }
        // The full window stops mattering once it is out of the edge band; a little jitter spreads the wake-ups.
        const wakeAt = result.full.windowStart.getTime() + MINUTE_MS + config.edgeMs + Math.floor(random() * 50);
        const waitMs = Math.max(1, wakeAt - now);
        if (now - startedAt + waitMs > config.maxWaitMs) {
          throw new PlatformError({
            kind: "local",
            status: null,
            code: "rate_budget_exhausted",
            message: "This store's request budget for the current minute is spent. Try again in a minute.",
            retryAfter: Math.ceil(waitMs / 1000),
          });
        }
        await deps.sleep(waitMs);
      }
    },

    async onRateLimited(installId, retryAfterMs) {
      const now = deps.now();
      const windowStart = windowStartOf(now);
      if (retryAfterMs === null || now + retryAfterMs < windowStart + MINUTE_MS) return;
      await saturateSlot(deps.db, {
        bucket: installBucket(installId),
        windowStart: new Date(windowStart),
        limit: config.perInstall,
      });
    },
  };
}
