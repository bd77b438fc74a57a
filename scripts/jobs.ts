/**
 * `npm run jobs`: the job queue at a glance, per kind (queued, active, failed, how long the oldest waits), the
 * last errors, then how many stores lack each scope the app needs (a section added since they installed; their
 * merchants are asked to approve it, lib/installs/scopes.ts). `npm run jobs -- retry <id>` sends a failed job back to the queue.
 *
 * On the embedded database this opens its folder, so it works only while the app is stopped (the lock says so).
 */
import { openDatabaseFromEnv } from "../lib/database/open";
import { startBoss } from "../lib/jobs/boss";
import { lastErrors, queueStats, retryJob } from "../lib/jobs/stats";
import { countInstallsByGrant } from "../db/queries/installs";
import { countStoresLackingScopes } from "../lib/installs/scopes";

function age(seconds: number): string {
  if (seconds <= 0) return "-";
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7_200) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 3_600)} h`;
}

async function main(): Promise<number> {
  const [command, id] = process.argv.slice(2);
  if (command && command !== "retry") {
    console.error("Usage: npm run jobs [-- retry <job id>]");
    return 2;
  }
  const handle = await openDatabaseFromEnv({ maxConnections: 1, migrateEmbedded: true });
  const boss = await startBoss(handle, { maxConnections: 1 });
  try {
    if (command === "retry") {
      if (!id) {
        console.error("✗ retry takes a job id (see the last errors of npm run jobs).");
        return 2;
      }
      const retried = await retryJob(boss, id);
      console.log(retried ? `✓ Job ${id} is queued again.` : `✗ No failed job has the id ${id}.`);
      return retried ? 0 : 1;
    }
    const rows = await queueStats(boss);
    const width = Math.max(...rows.map((row) => row.name.length), 4);
    console.log(`${"kind".padEnd(width)}  queued  active  failed  oldest waiting`);
    for (const row of rows) {
      console.log(
        `${row.name.padEnd(width)}  ${String(row.queued).padStart(6)}  ${String(row.active).padStart(6)}  ${String(row.failed).padStart(6)}  ${age(row.oldestQueuedSeconds)}`,
      );
    }
    const errors = await lastErrors(boss);
    console.log(errors.length ? "\nLast errors (newest first):" : "\nNo recent errors.");
    for (const error of errors) {
      console.log(`  ${error.at.toISOString()}  ${error.name}${error.key ? ` [${error.key}]` : ""}  ${error.state}  ${error.id}\n    ${error.error}`);
    }
    const gaps = countStoresLackingScopes(await countInstallsByGrant(handle.db));
    const lacking = gaps.filter((gap) => gap.stores > 0);
    console.log(lacking.length ? "\nStores lacking a scope the app needs (asked to approve it):" : "\nEvery store has granted every scope the app needs.");
    for (const gap of lacking) console.log(`  ${gap.scope.padEnd(Math.max(...gaps.map((row) => row.scope.length)))}  ${gap.stores}`);
    return 0;
  } finally {
    await boss.stop({ graceful: false, close: true });
    await handle.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`✗ ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
