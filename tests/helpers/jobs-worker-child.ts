/**
 * A job worker in a process of its own, for tests that kill it (SIGKILL): the database is JOBS_CHILD_DB (a
 * PostgreSQL URL or an embedded folder), the platform JOBS_CHILD_API. Prints "ready" once it takes jobs.
 */
import { openDatabase } from "@/db/client";
import { startWorker } from "@/lib/jobs/runtime";
import { setLogSink } from "@/lib/log";

const target = process.env.JOBS_CHILD_DB ?? "";
const api = process.env.JOBS_CHILD_API ?? "";
setLogSink(() => {});
const handle = await openDatabase(/^postgres(ql)?:/.test(target) ? { url: target } : { embedded: target });
await startWorker(handle, {
  platform: { baseUrl: api, retry: { maxAttempts: 1 } },
  backfillChunkPages: 2,
  pollingIntervalSeconds: 1,
  superviseIntervalSeconds: 1,
});
console.log("ready");
// Runs until killed.
setInterval(() => {}, 60_000);
