import { checkClientAddress } from "./client-address-check";
import { checkDatabase, type DatabaseOpener } from "./database-checks";
import { serviceDomainsOf } from "@/lib/webhook-url/domains";
import { checkVariables, type RawEnv } from "./env-checks";
import { isLocalPlatform } from "@/lib/env";
import { checkJobsMode } from "./jobs-checks";
import { checkRequestedScopes } from "./scope-checks";
import { checkObservability } from "./observability-checks";
import { checkApiReachable, checkClientCredentials } from "./platform-checks";
import type { CheckResult, DoctorReport } from "./types";
import { checkRedirectUri, checkWebhookUrl } from "./url-checks";

export type { CheckResult, DoctorReport } from "./types";
export { isLocalPlatform } from "@/lib/env";

export type DoctorOptions = {
  /** Extra service domains (besides those of SVC_AUTH_URL and SVC_API_URL and lib/webhook-url/domains.ts). */
  serviceDomains?: readonly string[];
  /** Replaces the Public Suffix List's free subdomains (lib/webhook-url/domains.ts) with this list. */
  serverlessDomains?: readonly string[];
  /** Skip the calls to the platform (no network), e.g. in a build sandbox. */
  skipPlatform?: boolean;
  fetch?: typeof fetch;
  openDatabase?: DatabaseOpener;
  timeoutMs?: number;
};

/**
 * `npm run doctor`: judges a configuration the way a production deploy would run with it. Takes the raw
 * environment as an argument (not process.env) so tests feed it configurations directly.
 */
export async function runDoctor(raw: RawEnv, options: DoctorOptions = {}): Promise<DoctorReport> {
  const localPlatform = isLocalPlatform(raw);
  const variables = checkVariables(raw);
  // A variable whose own line passed is usable by the later checks even when another variable is broken.
  const usable = (name: string): string | null => {
    const line = variables.checks.find((check) => check.id === `env.${name}`);
    const value = raw[name];
    return line?.status === "pass" && value ? value.replace(/\/+$/, "") : null;
  };
  const appUrl = usable("APP_URL");
  const authUrl = usable("SVC_AUTH_URL");
  const apiUrl = usable("SVC_API_URL");

  const checks: CheckResult[] = [...variables.checks];
  checks.push(checkRedirectUri(appUrl));
  checks.push(
    checkWebhookUrl(appUrl, {
      serviceDomains: serviceDomainsOf([raw.SVC_AUTH_URL, raw.SVC_API_URL], options.serviceDomains),
      serverlessDomains: options.serverlessDomains,
      localPlatform,
    }),
  );

  const databaseLine = variables.checks.find((check) => check.id === "env.DATABASE_URL");
  if (databaseLine?.status === "fail") {
    checks.push({ id: "database.reachable", title: "Database", status: "skip", detail: "needs a well-formed DATABASE_URL" });
  } else {
    checks.push(
      ...(await checkDatabase(raw.DATABASE_URL || null, { open: options.openDatabase, timeoutMs: options.timeoutMs, environment: raw.VERCEL_ENV || undefined })),
    );
  }
  checks.push(checkJobsMode(raw));
  checks.push(checkRequestedScopes(raw));

  checks.push(checkClientAddress(raw));
  checks.push(...checkObservability(raw));

  if (options.skipPlatform) {
    checks.push({ id: "platform", title: "Platform", status: "skip", detail: "skipped (--skip-platform)" });
  } else {
    // A development client id would probe the platform with the emulator's public credentials: pointless.
    const input = {
      authUrl,
      apiUrl,
      appUrl,
      clientId: usable("SVC_CLIENT_ID"),
      clientSecret: usable("SVC_CLIENT_SECRET"),
    };
    const platformOptions = { fetch: options.fetch, timeoutMs: options.timeoutMs };
    const [api, credentials] = await Promise.all([checkApiReachable(input, platformOptions), checkClientCredentials(input, platformOptions)]);
    checks.push(api, credentials);
  }

  return { ok: checks.every((check) => check.status !== "fail"), checks, localPlatform };
}

const MARKS: Record<CheckResult["status"], string> = { pass: "✓", fail: "✗", warn: "!", skip: "-" };

/** One line per check, with the fix under every failure and warning. */
export function formatReport(report: DoctorReport): string {
  const width = Math.max(...report.checks.map((check) => check.title.length));
  const lines = report.checks.flatMap((check) => {
    const line = `${MARKS[check.status]} ${check.title.padEnd(width)}  ${check.detail}`;
    return check.fix && (check.status === "fail" || check.status === "warn") ? [line, `  ${" ".repeat(width)}  fix: ${check.fix}`] : [line];
  });
  const failed = report.checks.filter((check) => check.status === "fail").length;
  lines.push("", report.ok ? "All checks passed." : `${failed} check(s) failed.`);
  if (report.localPlatform) {
    lines.push("The platform is the local emulator: its rules were applied, and the real console's shown as warnings.");
  }
  return lines.join("\n");
}
