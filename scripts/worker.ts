/**
 * `npm run worker`: the job worker alone, for Node hosts that run it beside `next start` (set JOBS_WORKER=off on
 * the web processes then). It works every queue (order imports, polls, retention, webhook follow-ups) and keeps
 * the schedules. SIGTERM or Ctrl-C: it stops taking jobs, lets running ones finish or hand their store back, and
 * exits within 10 s.
 *
 * Only on PostgreSQL (DATABASE_URL): the embedded database's folder belongs to the app's own process, which already
 * works the queue itself.
 */
import { openDatabaseFromEnv } from "../lib/database/open";
import { env } from "../lib/env";
import { startWorker } from "../lib/jobs/runtime";
import { log } from "../lib/log";
import { registerScrapeCollectors } from "../lib/observability/collectors";
import { serveMetrics } from "../lib/observability/metrics-server";

const HAND_BACK_MS = 8_000;

async function main(): Promise<void> {
  if (!env.DATABASE_URL) {
    console.error(
      [
        "✗ npm run worker needs a PostgreSQL server (DATABASE_URL), and none is set.",
        `  The embedded database (${env.PGLITE_DIR}) may be opened by one process only, and the app opens it: a second`,
        "  process on the same folder would corrupt it. With the embedded database the app's own process runs the jobs",
        "  (npm run dev, npm start): there is nothing to start here.",
        "  For a separate worker, set DATABASE_URL on the app and on the worker, run npm run db:migrate, then start both.",
      ].join("\n"),
    );
    process.exit(2);
  }
  // The same tracing as the web process (job runs, their platform calls and statements), loaded only when set.
  const tracing = env.OTEL_EXPORTER_OTLP_ENDPOINT ? await import("../lib/observability/tracing-setup") : null;
  tracing?.startTracing();
  const handle = await openDatabaseFromEnv();
  const worker = await startWorker(handle, { schedule: true });
  log.info("job worker started", { component: "jobs", database: handle.location });
  // Its own counters (job runs, platform calls) on a port of its own; the queue's figures are read at each scrape.
  const metrics = env.METRICS_SECRET
    ? await serveMetrics({ port: env.WORKER_METRICS_PORT, host: env.WORKER_METRICS_HOST, secret: env.METRICS_SECRET }).then((server) => {
        registerScrapeCollectors({ database: async () => handle, db: async () => handle.db, isOpening: () => false, jobs: async () => worker.boss });
        log.info("worker metrics served", { component: "jobs", host: env.WORKER_METRICS_HOST, port: env.WORKER_METRICS_PORT, path: "/metrics" });
        return server;
      })
    : null;

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info("job worker stopping", { component: "jobs", signal });
    // A hard limit too, in case the database itself hangs: the host's kill follows at 10 s anyway.
    const force = setTimeout(() => process.exit(1), HAND_BACK_MS + 1_500);
    force.unref();
    try {
      metrics?.close();
      await worker.stop(HAND_BACK_MS);
      await handle.close();
      // The last job runs' spans go out before the exit.
      await tracing?.flushTracing().catch(() => undefined);
      log.info("job worker stopped", { component: "jobs" });
      process.exit(0);
    } catch (error) {
      log.error("job worker did not stop cleanly", { component: "jobs", error: error instanceof Error ? error.message : String(error) });
      process.exit(1);
    }
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
}

main().catch((error: unknown) => {
  console.error(`✗ The job worker could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
