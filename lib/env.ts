import { z } from "zod";
import { DEV_APP } from "@/lib/dev-app";
import { LOCALES } from "@/lib/language";
import { PAGE_SCOPES } from "@/lib/sections";
import { parseCidr } from "@/lib/http/cidr";

/**
 * The one place the environment is read. Everything else imports `env`.
 * Development and test get defaults that match the emulator's fixtures; production gets none, so a missing or
 * malformed variable stops the server at start with one message naming each bad variable. Production also refuses
 * what `npm run doctor` refuses (the same rules, from here): a value this repository publishes as a development
 * default, and plain http to the platform.
 */

/**
 * The scopes this template's pages use, from the section registry (lib/sections.ts): each section lists what its
 * page calls with. Development asks for exactly these; .env.example recommends them for production, where an unset
 * SVC_SCOPES keeps the platform's meaning (every scope registered on the app).
 */
export { PAGE_SCOPES };

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

export type RawEnv = Record<string, string | undefined>;

const PUBLISHED_VALUE = "is the template's public development value";
const NEEDS_HTTPS = "must use https in production";

/** What production refuses beyond the schema, given the value set, where the platform is and the other variables. */
type ProductionRule = (value: string | undefined, platform: { local: boolean }, raw: RawEnv) => string | null;

export type EnvVariable = {
  schema: z.ZodType;
  /**
   * "required": production refuses to start without it (the doctor always prints it). "optional": may be unset (the
   * doctor prints it when set). "internal": set by the tooling, not the deployer (the doctor prints it only when bad).
   */
  setting: "required" | "optional" | "internal";
  /** Its value in development and test when unset; production gets none. */
  development?: (raw: RawEnv) => string;
  production?: ProductionRule;
  /** What the doctor (and `npm run setup`) tells the deployer to do when the variable fails. */
  fix?: string;
};

/** A secret whose development default is published in this repository: production refuses it, whatever else is set. */
function publishedSecret(value: string): Pick<EnvVariable, "development" | "production"> {
  return { development: () => value, production: (set) => (set === value ? PUBLISHED_VALUE : null) };
}

/**
 * The emulator's built-in app (lib/dev-app.ts): published too, but it only opens the emulator. A production build
 * may use it against an emulator on this machine (the browser tests and benchmarks run that way); with any other
 * platform host it is refused like the secrets above.
 */
function emulatorCredential(value: string): Pick<EnvVariable, "development" | "production"> {
  return { development: () => value, production: (set, platform) => (!platform.local && set === value ? PUBLISHED_VALUE : null) };
}

const emulatorOrigin = (raw: RawEnv) => `http://localhost:${raw.EMULATOR_PORT ?? DEV_APP.emulatorPort}`;

/** The platform's hosts receive the client secret and every token: plain http would send them in clear. */
const httpsOffEmulator: ProductionRule = (value, platform) =>
  !platform.local && value !== undefined && !value.startsWith("https://") ? NEEDS_HTTPS : null;

const DEVELOPMENT_TOKEN_KEY = Buffer.alloc(32, 7).toString("base64");

/**
 * With TRUST_PROXY_HOPS ≥ 1 the deployer must say which proxies to believe: a default would trust either too much
 * (every private range) or too little (a CDN in front of the load balancer, whose edge then counts as every
 * merchant's address). Not read on a rehearsal (no per-address budget) nor on Vercel (its edge's header is used).
 */
const trustedProxiesRule: ProductionRule = (value, platform, raw) => {
  if (platform.local || raw.VERCEL === "1" || !(Number(raw.TRUST_PROXY_HOPS) >= 1)) return null;
  if (value === undefined) return "missing: TRUST_PROXY_HOPS is 1 or more, so list the proxies whose X-Forwarded-For is believed";
  return value.split(",").some((entry) => entry.trim() !== "")
    ? null
    : "is empty, which trusts no proxy, while TRUST_PROXY_HOPS is 1 or more: list the proxies' addresses or CIDRs";
};

/**
 * Every variable the app reads, once: its schema, whether production needs it, its development default, what
 * production refuses beyond the schema and the doctor's fix. Listed in the order the doctor prints them. To add one:
 * add it here and to .env.example; the server, `npm run doctor` and `npm run setup` follow.
 */
const ENV_VARIABLES = {
  APP_URL: {
    schema: origin,
    setting: "required",
    development: () => DEV_APP.appUrl,
    // Cookies, the consent's redirect and every page travel on it: plain http only to this machine.
    production: (value) => (value !== undefined && !value.startsWith("https://") && !isLoopback(value) ? NEEDS_HTTPS : null),
    fix: "set it to the app's public origin, e.g. https://app.example.com (no path)",
  },
  SVC_AUTH_URL: {
    schema: origin,
    setting: "required",
    development: emulatorOrigin,
    production: httpsOffEmulator,
    fix: "set it to the platform's auth host ({auth_url}) from the developer console",
  },
  SVC_API_URL: {
    schema: origin,
    setting: "required",
    development: emulatorOrigin,
    production: httpsOffEmulator,
    fix: "set it to the platform's REST API host ({base_url}), without /v1",
  },
  SVC_CLIENT_ID: {
    schema: z.string().regex(/^svcapp_[0-9a-f]{20}$/, "must be svcapp_ followed by 20 hex characters"),
    setting: "required",
    ...emulatorCredential(DEV_APP.clientId),
    fix: "copy the client id from the developer console (svcapp_ followed by 20 hex characters)",
  },
  SVC_CLIENT_SECRET: {
    schema: z.string().regex(/^svcas_[0-9a-f]{48}$/, "must be svcas_ followed by 48 hex characters"),
    setting: "required",
    ...emulatorCredential(DEV_APP.clientSecret),
    fix: "copy the client secret from the developer console (svcas_ followed by 48 hex characters)",
  },
  SVC_WEBHOOK_SECRET: {
    schema: z.string().min(16, "must be the webhook signing secret from the developer console"),
    setting: "required",
    ...emulatorCredential(DEV_APP.webhookSecret),
    fix: "copy the webhook signing secret from the developer console",
  },
  SESSION_SECRET: {
    schema: z.string().min(32, "must be at least 32 characters"),
    setting: "required",
    ...publishedSecret("development-only-session-secret-not-for-production"),
    fix: "generate one with `openssl rand -base64 32` (at least 32 characters)",
  },
  TOKEN_ENCRYPTION_KEY: {
    schema: base64Key32,
    setting: "required",
    ...publishedSecret(DEVELOPMENT_TOKEN_KEY),
    fix: "generate one with `openssl rand -base64 32` (exactly 32 bytes, base64)",
  },
  DATABASE_URL: {
    schema: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
      .optional(),
    setting: "optional",
    fix: "use a postgres:// or postgresql:// URL, or unset it to use the embedded database",
  },
  SVC_SCOPES: {
    schema: z
      .string()
      .max(512, "must be at most 512 characters (the platform's limit on scope)")
      .optional()
      .transform((value) => (value && value.trim() ? value.trim().split(/\s+/) : undefined)),
    setting: "optional",
    // Unset in production keeps the platform's meaning: every scope registered on the app.
    development: () => PAGE_SCOPES.join(" "),
    fix: "list scopes separated by spaces, at most 512 characters, or unset it to request all registered scopes",
  },
  /** Comma-separated retired keys, still accepted for decryption until `npm run tokens:rotate` has run. */
  TOKEN_ENCRYPTION_KEYS_PREVIOUS: {
    schema: z
      .string()
      .optional()
      .transform((value) => (value ? value.split(",").map((key) => key.trim()).filter(Boolean) : []))
      .pipe(z.array(base64Key32)),
    setting: "optional",
    production: (value) =>
      (value ?? "").split(",").map((key) => key.trim()).includes(DEVELOPMENT_TOKEN_KEY)
        ? "lists the template's public development key"
        : null,
    fix: "list retired keys comma-separated, each 32 bytes in base64, or unset it",
  },
  /** Bearer secret for `POST /api/cron/jobs` (hosted schedulers). Unset in production: the route is off. */
  CRON_SECRET: {
    schema: z.string().min(16, "must be at least 16 characters").optional(),
    setting: "optional",
    ...publishedSecret("development-only-cron-secret"),
    fix: "generate one with `openssl rand -hex 24` (at least 16 characters), or unset it to turn the cron route off",
  },
  /** Bearer secret a Prometheus scraper sends to `GET /api/metrics`. Unset (every environment): the route is off. */
  METRICS_SECRET: {
    schema: z.string().min(16, "must be at least 16 characters").optional(),
    setting: "optional",
    fix: "generate one with `openssl rand -hex 24` (at least 16 characters), or unset it to turn /api/metrics off",
  },
  /** Base URL of an OTLP/HTTP collector (spans go to its /v1/traces). Unset: tracing is off and nothing of it loads. */
  OTEL_EXPORTER_OTLP_ENDPOINT: {
    schema: z
      .string()
      .regex(/^https?:\/\/[^\s/?#]+/i, "must be an http:// or https:// URL such as http://localhost:4318")
      .pipe(origin)
      .optional(),
    setting: "optional",
    fix: "use the collector's base URL such as http://localhost:4318 (spans go to its /v1/traces), or unset it",
  },
  /**
   * Whether the app's own process works the job queue (lib/jobs). `inline` suits one process; `off` when
   * `npm run worker` runs apart, or the cron route works the queue every minute; `requests` on a serverless host
   * whose scheduler may run only daily: the requests that create jobs work them after their answer
   * (lib/jobs/request-driven.ts). The embedded database always works inline: no second process may open its folder.
   */
  /** Port where `npm run worker` serves its own /metrics (same bearer as METRICS_SECRET; off while that is unset). */
  WORKER_METRICS_PORT: {
    schema: z.coerce.number().int().min(1).max(65535).default(9464),
    setting: "optional",
    fix: "use a free TCP port such as 9464",
  },
  /**
   * Address `npm run worker`'s /metrics listens on. Loopback by default: the server speaks plain http, so the bearer
   * would cross the network in clear; open it (0.0.0.0, or a private interface's address) only where the scraper
   * reaches it over a network you trust or through a TLS sidecar (docs/operations.md).
   */
  WORKER_METRICS_HOST: {
    schema: z.union([z.ipv4(), z.ipv6()], { error: "must be an IP address such as 127.0.0.1, 0.0.0.0 or ::" }).default("127.0.0.1"),
    setting: "optional",
    fix: "use 127.0.0.1 (this machine only) or the address of the interface the scraper reaches",
  },
  JOBS_WORKER: {
    schema: z.enum(["inline", "off", "requests"], { error: "must be inline, off or requests" }).default("inline"),
    setting: "optional",
    fix: "use inline (the app's process works the job queue), off (npm run worker or the cron route does) or requests (a serverless host: the requests that create jobs work them after their answer)",
  },
  LOG_LEVEL: {
    schema: z.enum(["debug", "info", "warn", "error"]).default("info"),
    setting: "optional",
    fix: "use debug, info, warn or error",
  },
  /** Folder of the embedded database when DATABASE_URL is unset. */
  PGLITE_DIR: {
    schema: z.string().default(".data/pglite"),
    setting: "optional",
    fix: "name a folder the app may write to, or unset it to use .data/pglite",
  },
  /** The merchant UI's language when neither the switcher's cookie nor the browser's languages name one we have. */
  DEFAULT_LOCALE: {
    schema: z.enum(LOCALES, { error: `must be one of ${LOCALES.join(", ")}` }).default("fr"),
    setting: "optional",
    fix: `use one of ${LOCALES.join(", ")}, or unset it for fr`,
  },
  /** Time zone the stores' dates and times are shown in (an IANA name). */
  STORE_TIME_ZONE: {
    schema: z
      .string()
      .refine(isTimeZone, "must be an IANA time zone name such as Africa/Algiers")
      .default("Africa/Algiers"),
    setting: "optional",
    fix: "use an IANA time zone name such as Africa/Algiers, or unset it",
  },
  /**
   * How many reverse proxies in front of the app append to X-Forwarded-For: with n ≥ 1 and a connection from a
   * trusted proxy, the client address (install budgets, lib/http/client-address.ts) is found walking at most n
   * entries from the right, past trusted proxies; 0 takes the connection's peer and never reads the header.
   */
  TRUST_PROXY_HOPS: {
    schema: z.coerce.number().int("must be a whole number").min(0, "must be 0 or more").max(10, "must be at most 10").default(0),
    setting: "optional",
    fix: "set it to the number of proxies that append to X-Forwarded-For in front of the app (see docs/deploy.md), or unset it for 0",
  },
  /**
   * The proxies (addresses or CIDRs, comma-separated) whose X-Forwarded-For is believed when TRUST_PROXY_HOPS ≥ 1.
   * Unset in development: loopback and the private ranges (lib/http/cidr.ts PRIVATE_NETWORKS), where a container's
   * proxy sits. Set empty: no proxy at all (an empty list is a list), never "every private range". Production with
   * TRUST_PROXY_HOPS ≥ 1 refuses both: a guessed list silently turns a CDN's edge into every merchant's address.
   */
  TRUSTED_PROXIES: {
    schema: z
      .string()
      .optional()
      .transform((value) => (value === undefined ? undefined : value.split(",").map((entry) => entry.trim()).filter(Boolean)))
      .pipe(
        z
          .array(z.string().refine((entry) => parseCidr(entry) !== null, "must list IP addresses or CIDRs such as 10.0.0.0/8, comma-separated"))
          .optional(),
      ),
    setting: "optional",
    production: trustedProxiesRule,
    fix: "list your proxies' addresses or CIDRs comma-separated, e.g. 10.0.0.0/8,2001:db8::/48 (see docs/deploy.md), or set TRUST_PROXY_HOPS=0",
  },
  NODE_ENV: {
    schema: z.enum(["development", "test", "production"]).default("development"),
    setting: "internal",
  },
  EMULATOR_PORT: {
    schema: z.coerce.number().int().min(1).max(65535).default(DEV_APP.emulatorPort),
    setting: "internal",
  },
  /**
   * Token calls the app allows itself per 300 s (lib/oauth/install-budget.ts): the platform's limit, 60. Only the
   * browser tests raise it, for an emulator started with its OAuth limits off (they install more often than that).
   */
  TOKEN_ENDPOINT_LIMIT: {
    schema: z.coerce.number().int().min(1).default(60),
    setting: "internal",
  },
  /** Set to 1 by Vercel on its builds and functions: its edge overwrites the client address headers. */
  VERCEL: {
    schema: z.string().optional(),
    setting: "internal",
  },
  /**
   * Set by Vercel: production, preview or development. `npm run db:migrate` records it with APP_URL in the database
   * (app_environments) and the doctor warns when a preview's database was migrated by another environment.
   */
  VERCEL_ENV: {
    schema: z.string().optional(),
    setting: "internal",
  },
} satisfies Record<string, EnvVariable>;

type EnvName = keyof typeof ENV_VARIABLES;

/** The table as entries, in its order, each seen as a plain EnvVariable. */
export const ENV_VARIABLE_LIST = Object.entries(ENV_VARIABLES) as readonly [EnvName, EnvVariable][];

type Schemas = { [Name in EnvName]: (typeof ENV_VARIABLES)[Name]["schema"] };
const schema = z.object(Object.fromEntries(ENV_VARIABLE_LIST.map(([name, variable]) => [name, variable.schema])) as Schemas);

export type Env = z.infer<typeof schema>;

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

function developmentDefaults(raw: RawEnv): RawEnv {
  return Object.fromEntries(ENV_VARIABLE_LIST.flatMap(([name, variable]) => (variable.development ? [[name, variable.development(raw)]] : [])));
}

function isLoopback(url: string | undefined): boolean {
  try {
    const parsed = new URL(url ?? "");
    const host = parsed.hostname;
    const loopback = host === "localhost" || host === "[::1]" || /^127(\.\d{1,3}){3}$/.test(host);
    return loopback && (parsed.protocol === "http:" || parsed.protocol === "https:");
  } catch {
    return false;
  }
}

/**
 * The platform's hosts and the app itself are on this machine: the only platform there is the emulator, so the
 * configuration is a rehearsal against it. Production then lets the emulator's own app credentials and plain http
 * to it pass, and the doctor shows the real console's rules as warnings; the secrets that protect the app's own
 * data are judged as usual. A public APP_URL is never a rehearsal, even with loopback platform hosts (a local
 * forward proxy or tunnel to the real platform): its webhooks must not be forgeable with a secret published here.
 */
export function isLocalPlatform(raw: RawEnv): boolean {
  // An APP_URL not given yet (`npm run setup` asks for the platform's hosts first) does not decide it; production
  // refuses to start without one anyway.
  const appLocal = raw.APP_URL === undefined || isLoopback(raw.APP_URL);
  return appLocal && isLoopback(raw.SVC_AUTH_URL) && isLoopback(raw.SVC_API_URL);
}

/** What production refuses beyond the schema, one problem per variable; values are compared, never printed. */
function productionProblems(raw: RawEnv): { variable: string; message: string }[] {
  const platform = { local: isLocalPlatform(raw) };
  return ENV_VARIABLE_LIST.flatMap(([variable, { production }]) => {
    const message = production?.(raw[variable], platform, raw);
    return message ? [{ variable, message }] : [];
  });
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
  const cleaned: RawEnv = Object.fromEntries(Object.entries(raw).map(([key, value]) => [key, value === "" && !KEEPS_EMPTY.has(key) ? undefined : value]));
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

/** Variables for which set-but-empty means something of its own (an empty list), not "unset". */
const KEEPS_EMPTY = new Set(["TRUSTED_PROXIES"]);

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
