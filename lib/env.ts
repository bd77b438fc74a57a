import { z } from "zod";
import { DEV_APP } from "@/lib/dev-app";
import { LOCALES } from "@/i18n/locales";

/**
 * The one place the environment is read. Everything else imports `env`.
 * Development and test get defaults that match the emulator's fixtures; production gets none, so a missing or
 * malformed variable stops the server at start with one message naming each bad variable. Production also refuses
 * what `npm run doctor` refuses (the same rules, from here): a value this repository publishes as a development
 * default, and plain http to the platform.
 */

/**
 * The scopes this template's pages use: orders (list, detail, webhooks, sync), products (the categories page) and
 * analytics (the store overview). Development asks for exactly these; .env.example recommends them for production,
 * where an unset SVC_SCOPES keeps the platform's meaning (every scope registered on the app).
 */
export const PAGE_SCOPES = ["orders:read", "products:read", "products:write", "analytics:read"] as const;

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
  /** The merchant UI's language when neither the switcher's cookie nor the browser's languages name one we have. */
  DEFAULT_LOCALE: z.enum(LOCALES, { error: `must be one of ${LOCALES.join(", ")}` }).default("fr"),
  /** Time zone the stores' dates and times are shown in (an IANA name). */
  STORE_TIME_ZONE: z
    .string()
    .refine(isTimeZone, "must be an IANA time zone name such as Africa/Algiers")
    .default("Africa/Algiers"),
});

export type Env = z.infer<typeof schema>;

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

type RawEnv = Record<string, string | undefined>;

/**
 * Secrets whose development default is published in this repository. Production refuses them, whatever else is set.
 * The emulator's app credentials are the exception below; these three protect the app's own data and sessions.
 */
export const PUBLISHED_SECRETS = {
  SESSION_SECRET: "development-only-session-secret-not-for-production",
  TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
  CRON_SECRET: "development-only-cron-secret",
} as const;

/**
 * The emulator's built-in app (lib/dev-app.ts): published too, but they only open the emulator. A production build
 * may use them against an emulator on this machine (the browser tests and benchmarks run that way); with any other
 * platform host they are refused like the secrets above.
 */
export const EMULATOR_CREDENTIALS = {
  SVC_CLIENT_ID: DEV_APP.clientId,
  SVC_CLIENT_SECRET: DEV_APP.clientSecret,
  SVC_WEBHOOK_SECRET: DEV_APP.webhookSecret,
} as const;

/** The platform's hosts receive the client secret and every token: plain http would send them in clear. */
export const HTTPS_ONLY = ["SVC_AUTH_URL", "SVC_API_URL"] as const;

export const PUBLISHED_VALUE = "is the template's public development value";
export const NEEDS_HTTPS = "must use https in production";

function developmentDefaults(raw: RawEnv): RawEnv {
  const emulatorPort = raw.EMULATOR_PORT ?? String(DEV_APP.emulatorPort);
  const emulatorOrigin = `http://localhost:${emulatorPort}`;
  return {
    APP_URL: DEV_APP.appUrl,
    SVC_AUTH_URL: emulatorOrigin,
    SVC_API_URL: emulatorOrigin,
    ...EMULATOR_CREDENTIALS,
    ...PUBLISHED_SECRETS,
    SVC_SCOPES: PAGE_SCOPES.join(" "),
  };
}

function isLoopback(url: string | undefined): boolean {
  try {
    const host = new URL(url ?? "").hostname;
    return host === "localhost" || host === "[::1]" || /^127(\.\d{1,3}){3}$/.test(host);
  } catch {
    return false;
  }
}

/** What production refuses beyond the schema, one problem per variable; values are compared, never printed. */
function productionProblems(raw: RawEnv): { variable: string; message: string }[] {
  const problems: { variable: string; message: string }[] = [];
  for (const [variable, published] of Object.entries(PUBLISHED_SECRETS)) {
    if (raw[variable] === published) problems.push({ variable, message: PUBLISHED_VALUE });
  }
  const previousKeys = (raw.TOKEN_ENCRYPTION_KEYS_PREVIOUS ?? "").split(",").map((key) => key.trim());
  if (previousKeys.includes(PUBLISHED_SECRETS.TOKEN_ENCRYPTION_KEY)) {
    problems.push({ variable: "TOKEN_ENCRYPTION_KEYS_PREVIOUS", message: "lists the template's public development key" });
  }
  const emulatorHere = HTTPS_ONLY.every((variable) => isLoopback(raw[variable]));
  if (!emulatorHere) {
    for (const [variable, published] of Object.entries(EMULATOR_CREDENTIALS)) {
      if (raw[variable] === published) problems.push({ variable, message: PUBLISHED_VALUE });
    }
    for (const variable of HTTPS_ONLY) {
      if (raw[variable] !== undefined && !raw[variable].startsWith("https://")) problems.push({ variable, message: NEEDS_HTTPS });
    }
  }
  return problems;
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

/**
 * Validates a raw environment. Exported so tests and `npm run doctor` can check configurations other than this
 * process's. Production rules apply when `NODE_ENV` says production, or when the caller says so (`env` below does
 * in any production build, whatever NODE_ENV it was started with).
 */
export function parseEnv(raw: RawEnv, options: { production?: boolean } = {}): Env {
  const cleaned: RawEnv = Object.fromEntries(Object.entries(raw).map(([key, value]) => [key, value === "" ? undefined : value]));
  const production = options.production || cleaned.NODE_ENV === "production";
  const merged = production ? { ...cleaned, NODE_ENV: "production" } : { ...developmentDefaults(cleaned), ...stripUndefined(cleaned) };
  const result = schema.safeParse(merged);
  const problems = result.success
    ? []
    : result.error.issues.map((issue) => ({
        variable: String(issue.path[0] ?? "(environment)"),
        message: issue.code === "invalid_type" && issue.input === undefined ? "missing" : issue.message,
      }));
  if (production) {
    // A variable keeps one problem, the schema's first: "missing" or "malformed" says more than "published".
    const named = new Set(problems.map((problem) => problem.variable));
    problems.push(...productionProblems(merged).filter((problem) => !named.has(problem.variable)));
  }
  if (problems.length > 0) throw new EnvError(problems);
  return result.data as Env;
}

function stripUndefined(raw: RawEnv): RawEnv {
  return Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== undefined));
}

/**
 * `next build` replaces this expression with its value at build time, so a production build reads true here even
 * when started with NODE_ENV=development (a mistake one line away on many hosts): it never runs on the published
 * development secrets. Scripts run by tsx read NODE_ENV as it is.
 */
const PRODUCTION_BUILD = process.env.NODE_ENV === "production";

let cached: Env | undefined;

/** The validated environment of this process, checked on first use (and at server start by instrumentation.ts). */
export const env: Env = new Proxy({} as Env, {
  get(_target, property) {
    cached ??= parseEnv(process.env, { production: PRODUCTION_BUILD });
    return cached[property as keyof Env];
  },
});

/** For tests that change process.env between cases. */
export function resetEnvCache(): void {
  cached = undefined;
}
