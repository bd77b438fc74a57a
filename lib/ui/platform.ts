import "server-only";
import { platformFor } from "@/lib/platform";

/**
 * The platform client for a request a merchant is waiting on (a page render, a form). Background jobs may wait a
 * minute and a half for a rate-limit window; a page should not: it retries a blip once, then says how long to
 * wait and lets the merchant decide.
 */
export function interactivePlatform(storeId: number) {
  return platformFor(storeId, {
    retry: { maxAttempts: 2, maxTotalMs: 4_000 },
    pacing: { maxWaitMs: 3_000 },
    timeoutMs: 10_000,
  });
}
