import { DEV_APP } from "../../../lib/dev-app";
import { PAGE_SCOPES } from "../../../lib/sections";
import { APP_PORT, APP_URL, EMULATOR_URL } from "./servers";

/** The production environment the end-to-end app runs with: the emulator's fixture credentials, nothing from a .env. */
export function e2eAppEnv(): Record<string, string> {
  const env: Record<string, string> = {
    NODE_ENV: "production",
    PORT: String(APP_PORT),
    APP_URL,
    SVC_AUTH_URL: EMULATOR_URL,
    SVC_API_URL: EMULATOR_URL,
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
  if (process.env.E2E_DATABASE_URL) env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  else env.PGLITE_DIR = process.env.E2E_PGLITE_DIR ?? ".data/e2e/pglite";
  return env;
}
