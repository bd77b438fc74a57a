/**
 * The one job drain (JOBS_WORKER=requests) in a process of its own, for a test that kills it mid-chunk (SIGKILL), as
 * the platform kills a function at its time limit: the database is JOBS_CHILD_DB (a PostgreSQL URL or an embedded
 * folder), the platform JOBS_CHILD_API. It never ends by itself (its deadline is far away).
 */
import { openDatabase } from "@/db/client";
import { drainOnce } from "@/lib/jobs/request-driven";
import { setLogSink } from "@/lib/log";

const target = process.env.JOBS_CHILD_DB ?? "";
const api = process.env.JOBS_CHILD_API ?? "";
setLogSink(() => {});
const handle = await openDatabase(/^postgres(ql)?:/.test(target) ? { url: target } : { embedded: target });
await drainOnce(handle, { platform: { baseUrl: api, retry: { maxAttempts: 1 } }, deadlineMs: 600_000, leaseMs: 600_000 });
