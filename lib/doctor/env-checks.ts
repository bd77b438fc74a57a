import { EnvError, parseEnv, type Env } from "@/lib/env";
import type { CheckResult } from "./types";

export type RawEnv = Record<string, string | undefined>;

/** Every variable a production deploy must set, in the order they are printed (and `npm run setup` asks). */
export const REQUIRED = [
  "APP_URL",
  "SVC_AUTH_URL",
  "SVC_API_URL",
  "SVC_CLIENT_ID",
  "SVC_CLIENT_SECRET",
  "SVC_WEBHOOK_SECRET",
  "SESSION_SECRET",
  "TOKEN_ENCRYPTION_KEY",
] as const;

/** Optional ones, printed only when set (a set but malformed optional variable still stops the server). */
const OPTIONAL = ["DATABASE_URL", "SVC_SCOPES", "TOKEN_ENCRYPTION_KEYS_PREVIOUS", "CRON_SECRET", "LOG_LEVEL", "PGLITE_DIR"] as const;

export const FIXES: Record<string, string> = {
  APP_URL: "set it to the app's public origin, e.g. https://app.example.com (no path)",
  SVC_AUTH_URL: "set it to the platform's auth host ({auth_url}) from the developer console",
  SVC_API_URL: "set it to the platform's REST API host ({base_url}), without /v1",
  SVC_CLIENT_ID: "copy the client id from the developer console (svcapp_ followed by 20 hex characters)",
  SVC_CLIENT_SECRET: "copy the client secret from the developer console (svcas_ followed by 48 hex characters)",
  SVC_WEBHOOK_SECRET: "copy the webhook signing secret from the developer console",
  SESSION_SECRET: "generate one with `openssl rand -base64 48` (at least 32 characters)",
  TOKEN_ENCRYPTION_KEY: "generate one with `openssl rand -base64 32` (exactly 32 bytes, base64)",
  TOKEN_ENCRYPTION_KEYS_PREVIOUS: "list retired keys comma-separated, each 32 bytes in base64, or unset it",
  DATABASE_URL: "use a postgres:// or postgresql:// URL, or unset it to use the embedded database",
  SVC_SCOPES: "list scopes separated by spaces, at most 512 characters, or unset it to request all registered scopes",
  CRON_SECRET: "generate one with `openssl rand -hex 24` (at least 16 characters), or unset it to turn the cron route off",
  LOG_LEVEL: "use debug, info, warn or error",
};

/**
 * One line per variable, judged exactly as production judges it at start (parseEnv in production: no defaults, no
 * published development value, https to the platform), so the doctor and the server never disagree.
 * Returns the parsed environment when every variable is well-formed, so later checks can use it.
 */
export function checkVariables(raw: RawEnv): { checks: CheckResult[]; env: Env | null } {
  const production: RawEnv = { ...raw, NODE_ENV: "production" };
  let env: Env | null = null;
  let problems: { variable: string; message: string }[] = [];
  try {
    env = parseEnv(production);
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    problems = error.problems;
  }

  const present = (name: string) => (production[name] ?? "") !== "";
  const names = [...REQUIRED, ...OPTIONAL.filter(present)];
  // A problem on a variable outside both lists (a new one in lib/env.ts) still gets its line.
  for (const problem of problems) if (!names.includes(problem.variable as never)) names.push(problem.variable as never);

  const checks = names.map((name): CheckResult => {
    const id = `env.${name}`;
    const problem = problems.find((candidate) => candidate.variable === name);
    if (problem) return { id, title: name, status: "fail", detail: problem.message, fix: FIXES[name] };
    return { id, title: name, status: "pass", detail: present(name) ? "set and well-formed" : "well-formed" };
  });
  return { checks, env };
}
