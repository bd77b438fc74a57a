import type { Instrumentation } from "next";

/** In `next dev`, how long the database and the job worker wait for a first answered page before starting anyway. */
const DEV_BACKGROUND_LATEST_MS = 60_000;

/**
 * Runs once when the server starts. In production a missing or malformed variable must stop the server here, with
 * one message naming each bad variable, rather than fail on the first request that happens to read it.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    // Before any request is answered if it can be: the connection's peer on every request, for the install
    // budgets (lib/http/peer-stamp.ts). A request parsed before this line carries no proof and counts as unknown.
    const { stampPeers } = await import("@/lib/http/peer-stamp");
    stampPeers();
    const { env, EnvError } = await import("@/lib/env");
    try {
      void env.APP_URL;
    } catch (error) {
      if (!(error instanceof EnvError)) throw error;
      const { log } = await import("@/lib/log");
      // The message names variables and their rules, never their values.
      log.error(error.message);
      // Next would only log a failed register() and go on serving; a misconfigured server must not.
      process.exit(1);
    }
    // Tracing is opt-in: with no collector configured, nothing of OpenTelemetry is even loaded. @vercel/otel reads
    // the endpoint (and the other OTEL_* variables) itself; lib/env.ts has checked it.
    if (env.OTEL_EXPORTER_OTLP_ENDPOINT) {
      const { startTracing } = await import("@/lib/observability/tracing-setup");
      startTracing();
    }
    if (env.NODE_ENV === "production") {
      // Next's own error lines (a failed render prints the error, SQL included) go through the redacting logger.
      const { routeConsoleThroughLog } = await import("@/lib/log-console");
      routeConsoleThroughLog();
    }
    // Not during `next build`, whose workers serve no request.
    if (process.env.NEXT_PHASE !== "phase-production-build") {
      const startBackground = async () => {
        // The database (for the embedded one, created and its tables migrated), so the requests after the first
        // find it open. A failure here is reported by the request that needs it.
        const { getDatabase } = await import("@/lib/database/app-database");
        getDatabase().catch(() => undefined);
        // The job engine (lib/jobs/app.ts): a worker inside this process on the embedded database or with
        // JOBS_WORKER=inline, so an install's order import starts without a request asking for it.
        const { getJobs } = await import("@/lib/jobs/app");
        getJobs().catch((error: unknown) => console.error(`job engine did not start: ${error instanceof Error ? error.message : String(error)}`));
      };
      if (env.NODE_ENV === "development") {
        // In `next dev` the first page is compiled on the same two cores: opening the embedded database, migrating
        // the job engine and starting its worker took CPU from that compile, and a signed-out page needs none of
        // it (a signed-in one opens the database itself, lib/database/app-database.ts). So they start once a page
        // has been answered, or after a minute with none (docs/benchmarks.md, the devloop section).
        const { afterFirstAnswer } = await import("@/lib/http/after-first-answer");
        afterFirstAnswer(() => void startBackground(), DEV_BACKGROUND_LATEST_MS);
      } else {
        await startBackground();
      }
    }
  }
}

/**
 * Every server error of a render, route handler, server action or the proxy, with the route, kind, request id and
 * digest, to the one reporter (lib/observability/report-error.ts): a redacted log line, and a vendor when one is set.
 */
export const onRequestError: Instrumentation.onRequestError = async (error, request, context) => {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { reportRequestError } = await import("@/lib/observability/report-error");
  await reportRequestError(error, request, context);
};
