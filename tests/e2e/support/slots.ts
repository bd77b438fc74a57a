import { availableParallelism } from "node:os";

/**
 * How many Playwright workers, each with an app, an emulator and a database of its own, a browser-test run uses:
 * as many as E2E_APP_PORT lists ports when it is set, else E2E_WORKERS, else two (one on a single core). Read by
 * playwright.config.ts (through servers.ts) and by scripts/test.ts, which makes one database per slot.
 */
export function e2eSlots(env: NodeJS.ProcessEnv = process.env): number {
  if (env.E2E_APP_PORT) return env.E2E_APP_PORT.split(",").length;
  return Math.max(1, Number(env.E2E_WORKERS) || Math.min(2, availableParallelism()));
}

/** The embedded database folder of a slot's app: E2E_PGLITE_DIR (or its default) for the first, numbered after it. */
export function slotPgliteDir(base: string, slot: number): string {
  return slot === 0 ? base : `${base}-${slot}`;
}
