import { counter, gauge, histogram } from "./registry";

/**
 * Every metric the app counts, declared once, with the functions the instrumented code calls. Names follow
 * Prometheus's conventions (base units, _total for counters). docs/operations.md says what to alert on.
 */

const webhookDeliveries = counter(
  "store_app_webhook_deliveries_total",
  "Webhook deliveries answered, by outcome (applied, duplicate, refused, failed) and, for refused and failed, reason.",
  ["outcome", "reason"],
);
const webhookSeconds = histogram("store_app_webhook_delivery_duration_seconds", "Time to answer a webhook delivery, by outcome.", ["outcome"]);

const platformCalls = counter(
  "store_app_platform_calls_total",
  "Calls to the platform's REST API, by operation (method and path template) and final status (HTTP status, or the local error code when none came back).",
  ["operation", "status"],
);
const platformRetries = counter("store_app_platform_retries_total", "Attempts beyond the first, by operation.", ["operation"]);
const platformSeconds = histogram("store_app_platform_call_duration_seconds", "Time of a platform call, pacing waits and retries included, by operation.", ["operation"]);
const pacingWait = histogram("store_app_platform_pacing_wait_seconds", "Time an attempt waited for a slot in the per-minute budget.");
const rateLimited = counter("store_app_platform_rate_limited_total", "429 answers received from the platform (each attempt counts).");

const sessionsOpened = counter("store_app_sessions_opened_total", "Merchant sessions opened (after a consent).");
const sessionsEnded = counter(
  "store_app_sessions_ended_total",
  "Merchant sessions ended, by reason (signed_out, signed_out_everywhere, replaced, idle_expired, lifetime_expired).",
  ["reason"],
);

const statementSeconds = histogram("store_app_db_statement_duration_seconds", "Database statements on request paths, timed by the app.");
const statementsInFlight = gauge("store_app_db_statements_in_flight", "Database statements on request paths sent and not yet answered.");

const jobRuns = counter("store_app_job_runs_total", "Job runs finished by this process's worker, by kind and outcome (completed, failed).", ["kind", "outcome"]);
const jobSeconds = histogram("store_app_job_run_duration_seconds", "Time of one job run on this process's worker, by kind.", ["kind"], [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300, 900]);

const requestErrors = counter("store_app_request_errors_total", "Server errors reported by Next (onRequestError), by kind (render, route, action, proxy).", ["kind"]);

export type WebhookOutcomeLabel = "applied" | "duplicate" | "refused" | "failed";

export function recordWebhookDelivery(outcome: WebhookOutcomeLabel, reason: string | undefined, seconds: number): void {
  webhookDeliveries.inc(reason ? { outcome, reason } : { outcome });
  webhookSeconds.observe({ outcome }, seconds);
}

/**
 * The path as an operation name: ids (numbers, or the platform's prefixed ids) become `:id`, so a label stays
 * one per endpoint and not one per order.
 */
export function operationOf(method: string, path: string): string {
  const template = path
    .split("/")
    .map((segment) => (/^\d+$/.test(segment) || /^[a-z]+_[A-Za-z0-9]{6,}$/.test(segment) ? ":id" : segment))
    .join("/");
  return `${method} ${template}`;
}

export function recordPlatformCall(call: { operation: string; status: string; attempts: number; seconds: number }): void {
  platformCalls.inc({ operation: call.operation, status: call.status });
  if (call.attempts > 1) platformRetries.inc({ operation: call.operation }, call.attempts - 1);
  platformSeconds.observe({ operation: call.operation }, call.seconds);
}

export function recordPacingWait(seconds: number): void {
  pacingWait.observe({}, seconds);
}

export function recordRateLimited(): void {
  rateLimited.inc();
}

export function recordSessionOpened(): void {
  sessionsOpened.inc();
}

export function recordSessionsEnded(reason: string, count = 1): void {
  if (count > 0) sessionsEnded.inc({ reason }, count);
}

export function statementStarted(): void {
  statementsInFlight.add({}, 1);
}

export function statementEnded(seconds: number): void {
  statementsInFlight.add({}, -1);
  statementSeconds.observe({}, seconds);
}

export function recordRequestError(kind: string): void {
  requestErrors.inc({ kind });
}

export function recordJobRun(kind: string, ok: boolean, seconds: number): void {
  jobRuns.inc({ kind, outcome: ok ? "completed" : "failed" });
  jobSeconds.observe({ kind }, seconds);
}
