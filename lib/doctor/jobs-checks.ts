import type { AppEnvironment } from "@/db/queries/app-environments";
import type { RawEnv } from "./env-checks";
import type { CheckResult } from "./types";

/**
 * Where the job queue is worked (JOBS_WORKER, docs/deploy.md#background-jobs), judged against the host:
 * - `inline` (the default) on Vercel (VERCEL=1): a worker inside a function lives only as long as a request, and one
 *   starts in every instance, each with its own pool: the jobs stall and the connections multiply. Refused.
 * - `requests` without CRON_SECRET: nothing can call the cron route, so no drain runs but the requests' own, with
 *   no hand-on and no schedule. Refused.
 */
export function checkJobsMode(raw: RawEnv): CheckResult {
  const base = { id: "jobs.mode", title: "Job worker" };
  const mode = raw.JOBS_WORKER || "inline";
  const onVercel = raw.VERCEL === "1";
  if (mode === "inline" && onVercel) {
    return {
      ...base,
      status: "fail",
      detail: `JOBS_WORKER is ${raw.JOBS_WORKER ? "inline" : "unset (inline)"} on Vercel: every function instance would start a worker of its own, which stops with its request`,
      fix: "set JOBS_WORKER=requests and CRON_SECRET (the cron route drains the queue, one drain at a time)",
    };
  }
  if (mode === "requests" && !raw.CRON_SECRET) {
    return {
      ...base,
      status: "fail",
      detail: "JOBS_WORKER=requests without CRON_SECRET: the cron route is off, so nothing schedules the polls or carries an import on",
      fix: "set CRON_SECRET (`openssl rand -hex 24`) and keep the cron of vercel.json, which sends it as a bearer",
    };
  }
  if (mode === "requests" && !raw.DATABASE_URL) {
    return {
      ...base,
      status: "warn",
      detail: "JOBS_WORKER=requests has no effect on the embedded database: the app's own process works the queue",
      fix: "set DATABASE_URL on a serverless host (its disk is not kept), or unset JOBS_WORKER",
    };
  }
  const said: Record<string, string> = {
    inline: "inline: the app's process works the queue (one Node process)",
    off: "off: `npm run worker` processes or the cron route work the queue",
    requests: "requests: one drain at a time, in the cron route, asked for by requests and the cron",
  };
  return { ...base, status: "pass", detail: said[mode] ?? mode };
}

/**
 * A preview deployment must not share production's database (a preview's jobs, webhooks and migrations would act on
 * production's stores). What the doctor can tell: `npm run db:migrate` records each deployment's environment and
 * APP_URL in the database it migrates (app_environments); a preview (VERCEL_ENV=preview) whose database was also
 * migrated by another environment is warned about, and so is production whose database a preview migrated. Elsewhere
 * (no VERCEL_ENV) nothing is judged.
 */
export function judgeSharedDatabase(environment: string | undefined, recorded: readonly AppEnvironment[] | null): CheckResult {
  const base = { id: "database.environments", title: "Shared database" };
  if (environment !== "preview" && environment !== "production") {
    return { ...base, status: "skip", detail: "only judged on Vercel (VERCEL_ENV preview or production)" };
  }
  if (recorded === null) return { ...base, status: "skip", detail: "needs the migrations applied (app_environments)" };
  const others = recorded.filter((row) => (environment === "preview" ? row.environment !== "preview" : row.environment === "preview"));
  if (others.length === 0) {
    return { ...base, status: "pass", detail: `no ${environment === "preview" ? "other environment" : "preview"} has migrated this database` };
  }
  const seen = others.map((row) => `${row.environment} (${row.appUrl}, ${row.migratedAt.toISOString().slice(0, 10)})`).join(", ");
  return {
    ...base,
    status: "warn",
    detail: `this ${environment}'s database was also migrated by ${seen}`,
    fix: "give previews a database of their own (a branch or a scratch database), never production's; see docs/deploy.md",
  };
}
