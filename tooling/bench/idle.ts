/**
 * What the app costs while nobody uses it: `next start` of the production build on PostgreSQL, with the job worker
 * inside its process (the default, JOBS_WORKER=inline), left alone for a while. It prints the statements a second
 * it sends its database (pg_stat_database's committed transactions on its own database, the bench's two readings
 * left out) and its CPU, beside the same build with the worker off (JOBS_WORKER=off: what the page server costs
 * alone) and the reference app's `next start` (the floor: the framework idling). A managed database that sleeps when
 * idle (and bills while awake) never sleeps under a steady trickle, so the statements are the figure to watch.
 */
import type { ChildProcess } from "node:child_process";
import os from "node:os";
import postgres from "postgres";
import { migrateDatabase } from "@/lib/database/migrate";
import { openDatabase } from "@/db/client";
import { benchDatabase, cpuMs, freePort, startNext, startReference, stopProcess, waitForStatus } from "./support";
import type { BenchResult } from "./types";

const SETTLE_MS = 10_000;
const WINDOW_MS = Number(process.env.BENCH_IDLE_SECONDS ?? 60) * 1000;

type Idle = { statementsPerSecond: number; cpuMsPerSecond: number };

async function measure(label: string, databaseUrl: string, start: (port: number) => ChildProcess, healthPath: string): Promise<Idle> {
  const port = await freePort();
  const server = start(port);
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    await waitForStatus(`http://127.0.0.1:${port}${healthPath}`, server, [200]);
    // Past its start: the worker's first look at every queue, the schedules' first check.
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const name = new URL(databaseUrl).pathname.slice(1);
    const committed = async () => Number((await sql<{ n: string }[]>`select xact_commit::text as n from pg_stat_database where datname = ${name}`)[0]?.n ?? 0);
    const [before, cpuBefore, startedAt] = [await committed(), cpuMs(server.pid!), Date.now()];
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS));
    const [after, cpuAfter] = [await committed(), cpuMs(server.pid!)];
    const seconds = (Date.now() - startedAt) / 1000;
    // The second reading commits one transaction of its own; the first is counted before the window.
    const idle = { statementsPerSecond: Math.max(0, after - before - 1) / seconds, cpuMsPerSecond: (cpuAfter - cpuBefore) / seconds };
    console.log(`  ${label}: ${idle.statementsPerSecond.toFixed(2)} statements/s, ${idle.cpuMsPerSecond.toFixed(1)} ms of CPU a second (${seconds.toFixed(0)} s, load ${(os.loadavg()[0] ?? 0).toFixed(1)})`);
    return idle;
  } finally {
    await sql.end();
    await stopProcess(server);
  }
}

/** The app's build with `env` on a migrated scratch database of its own. */
async function appIdle(label: string, env: Record<string, string>): Promise<Idle> {
  const database = await benchDatabase("bench_idle");
  try {
    const handle = await openDatabase({ url: database.url, maxConnections: 1 });
    await migrateDatabase(handle);
    await handle.close();
    return await measure(label, database.url, (port) => startNext(database.url, port, env), "/api/health");
  } finally {
    await database.drop();
  }
}

export async function benchIdle(): Promise<BenchResult> {
  const inline = await appIdle("the app, job worker inside (the default)", {});
  const off = await appIdle("the app, JOBS_WORKER=off", { JOBS_WORKER: "off" });
  const floorDatabase = await benchDatabase("bench_idle_floor");
  let floor: Idle;
  try {
    floor = await measure("the floor (reference app)", floorDatabase.url, (port) => startReference(floorDatabase.url, port), "/");
  } finally {
    await floorDatabase.drop();
  }
  const lines = [
    `the app with its job worker inside (the default): **${inline.statementsPerSecond.toFixed(2)} statements a second** to its database (${Math.round(inline.statementsPerSecond * 86_400).toLocaleString("en-US")} a day), ${inline.cpuMsPerSecond.toFixed(1)} ms of CPU a second`,
    `the app with JOBS_WORKER=off: ${off.statementsPerSecond.toFixed(2)} statements a second, ${off.cpuMsPerSecond.toFixed(1)} ms of CPU a second`,
    `the floor (the reference app's \`next start\`): ${floor.cpuMsPerSecond.toFixed(1)} ms of CPU a second`,
    `each over ${WINDOW_MS / 1000} s, after ${SETTLE_MS / 1000} s to settle; PostgreSQL on loopback`,
  ];
  return {
    title: "The app at rest: what an idle process costs its database and its machine",
    lines,
    figures: {
      idleStatementsPerSecond: inline.statementsPerSecond,
      idleCpuMsPerSecond: inline.cpuMsPerSecond,
      idleWorkerOffStatementsPerSecond: off.statementsPerSecond,
      idleFloorCpuMsPerSecond: floor.cpuMsPerSecond,
    },
  };
}
