import { z } from "zod";
import { DEV_APP } from "@/lib/dev-app";

/**
 * The one place the environment is read. Everything else imports `env`.
 * Development and test get defaults that match the emulator's fixtures; production gets none, so a missing or
 * malformed variable stops the server at start with one message naming each bad variable.
 */

const base64Key32 = z.string().refine((value) => {
  try {
    return Buffer.from(value, "base64").length === 32 && /^[A-Za-z0-9+/]+={0,2}$/.test(value);
  } catch {
    return false;
  }
}, "must be 32 random bytes, base64-encoded (generate one with `openssl rand -base64 32`)");

const origin = z
  .string()
  .url("must be an absolute URL such as https://app.example.com")
  .transform((value) => value.replace(/\/+$/, ""));

const schema = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  APP_URL: origin,
  SVC_AUTH_URL: origin,
  SVC_API_URL: origin,
  SVC_CLIENT_ID: z.string().regex(/^svcapp_[0-9a-f]{20}$/, "must be svcapp_ followed by 20 hex characters"),
  SVC_CLIENT_SECRET: z.string().regex(/^svcas_[0-9a-f]{48}$/, "must be svcas_ followed by 48 hex characters"),
  SVC_WEBHOOK_SECRET: z.string().min(16, "must be the webhook signing secret from the developer console"),
  SVC_SCOPES: z
    .string()
    .max(512, "must be at most 512 characters (the platform's limit on scope)")
    .optional()
    .transform((value) => (value && value.trim() ? value.trim().split(/\s+/) : undefined)),
  SESSION_SECRET: z.string().min(32, "must be at least 32 characters"),
  TOKEN_ENCRYPTION_KEY: base64Key32,
  /** Comma-separated retired keys, still accepted for decryption until `npm run tokens:rotate` has run. */
  TOKEN_ENCRYPTION_KEYS_PREVIOUS: z
    .string()
    .optional()
    .transform((value) => (value ? value.split(",").map((key) => key.trim()).filter(Boolean) : []))
    .pipe(z.array(base64Key32)),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  /** Folder of the embedded database when DATABASE_URL is unset. */
  PGLITE_DIR: z.string().default(".data/pglite"),
  EMULATOR_PORT: z.coerce.number().int().min(1).max(65535).default(DEV_APP.emulatorPort),
  /** Bearer secret for `POST /api/cron/sync-orders` (hosted schedulers). Unset in production: the route is off. */
  CRON_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
});

export type Env = z.infer<typeof schema>;

type RawEnv = Record<string, string | undefined>;

function developmentDefaults(raw: RawEnv): RawEnv {
  const emulatorPort = raw.EMULATOR_PORT ?? String(DEV_APP.emulatorPort);
  const emulatorOrigin = `http://localhost:${emulatorPort}`;
  return {
    APP_URL: DEV_APP.appUrl,
    SVC_AUTH_URL: emulatorOrigin,
    SVC_API_URL: emulatorOrigin,
    SVC_CLIENT_ID: DEV_APP.clientId,
    SVC_CLIENT_SECRET: DEV_APP.clientSecret,
    SVC_WEBHOOK_SECRET: DEV_APP.webhookSecret,
    SESSION_SECRET: "development-only-session-secret-not-for-production",
    TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
    CRON_SECRET: "development-only-cron-secret",
  };
}

export class EnvError extends Error {
  constructor(readonly problems: { variable: string; message: string }[]) {
    super(
      "Invalid environment. Fix these variables (see .env.example):\n" +
        problems.map((problem) => `  - ${problem.variable}: ${problem.message}`).join("\n"),
    );
    this.name = "EnvError";
  }
}

/** Validates a raw environment. Exported so tests and `npm run doctor` can check configurations other than this process's. */
export function parseEnv(raw: RawEnv): Env {
  const cleaned: RawEnv = Object.fromEntries(Object.entries(raw).map(([key, value]) => [key, value === "" ? undefined : value]));
  const production = cleaned.NODE_ENV === "production";
  const merged = production ? cleaned : { ...developmentDefaults(cleaned), ...stripUndefined(cleaned) };
  const result = schema.safeParse(merged);
  if (!result.success) {
    throw new EnvError(
      result.error.issues.map((issue) => ({
        variable: String(issue.path[0] ?? "(environment)"),
        message: issue.code === "invalid_type" && issue.input === undefined ? "missing" : issue.message,
      })),
    );
  }
  return result.data;
}

function stripUndefined(raw: RawEnv): RawEnv {
  return Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== undefined));
}

let cached: Env | undefined;

/** The validated environment of this process, checked on first use (and at server start by instrumentation.ts). */
export const env: Env = new Proxy({} as Env, {
  get(_target, property) {
    cached ??= parseEnv(process.env);
    return cached[property as keyof Env];
  },
});

/** For tests that change process.env between cases. */
export function resetEnvCache(): void {
  cached = undefined;
}
