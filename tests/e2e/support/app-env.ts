import { DEV_APP } from "../../../lib/dev-app";
import { PAGE_SCOPES } from "../../../lib/sections";
import { appPort, appUrl, emulatorUrl, SLOT } from "./servers";
import { slotPgliteDir } from "./slots";

/**
 * The database of a slot's app (tests/e2e/support/servers.ts): E2E_DATABASE_URL's databases (comma-separated, one per
 * slot, made by scripts/test.ts on a PostgreSQL server), else a PGlite folder of its own under E2E_PGLITE_DIR.
 */
export function e2eDatabase(slot: number): { DATABASE_URL: string } | { PGLITE_DIR: string } {
  const urls = process.env.E2E_DATABASE_URL?.split(",").filter(Boolean) ?? [];
  if (urls.length > 0) {
    const url = urls[slot];
    if (!url) throw new Error(`E2E_DATABASE_URL names ${urls.length} database(s): slot ${slot} has none`);
    return { DATABASE_URL: url };
  }
  return { PGLITE_DIR: slotPgliteDir(process.env.E2E_PGLITE_DIR ?? ".data/e2e/pglite", slot) };
}

/**
 * The production environment a slot's app runs with (this worker's by default): the emulator's fixture credentials,
 * nothing from a .env.
 */
export function e2eAppEnv(slot = SLOT): Record<string, string> {
  const env: Record<string, string> = {
    NODE_ENV: "production",
    PORT: String(appPort(slot)),
    APP_URL: appUrl(slot),
    SVC_AUTH_URL: emulatorUrl(slot),
    SVC_API_URL: emulatorUrl(slot),
    SVC_CLIENT_ID: DEV_APP.clientId,
    SVC_CLIENT_SECRET: DEV_APP.clientSecret,
    SVC_WEBHOOK_SECRET: DEV_APP.webhookSecret,
    // As .env.example recommends: only the scopes the pages use (the section registry's).
    SVC_SCOPES: PAGE_SCOPES.join(" "),
    SESSION_SECRET: "e2e-session-secret-at-least-32-characters-long",
    TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 42).toString("base64"),
    CRON_SECRET: "e2e-cron-secret-0123456789",
    METRICS_SECRET: "e2e-metrics-secret-0123456789",
    NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? ".next-test",
    LOG_LEVEL: "warn",
    // The suite's emulator runs without OAuth limits and the suite installs far more often than 60 times in 300 s:
    // the app's own mirror of that limit would turn installs away with its waiting page.
    TOKEN_ENDPOINT_LIMIT: "100000",
  };
  return { ...env, ...e2eDatabase(slot) };
}
