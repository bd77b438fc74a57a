/**
 * `npx tsx --conditions=react-server tooling/bench/webhook-cpu.ts`, once `npm run bench` has built both apps: the server's
 * CPU time per webhook event, app beside floor, and optionally a CPU profile of each server. Throughput on a shared
 * machine moves with everyone else's load; the CPU a server spends per event (read from /proc, user + system, the
 * server process alone, the database not counted) moves far less, so this is the figure to compare changes with.
 * Loopback traffic only, bounded in events.
 *
 *   --events=N   events per round and side (default 2000), after 300 warm-up events
 *   --rounds=N   rounds, the sides alternating (default 3)
 *   --prof=DIR   run each server under `node --cpu-prof` and leave its .cpuprofile in DIR/<side>
 *   --dist=DIR   the app's build folder (default .next-bench, as `npm run bench` builds it)
 *   --base=DIR   a second build of the app (an earlier commit's) measured beside it, as "base"
 *   --jobs-worker=off   the app (and base) without the job worker inside (JOBS_WORKER=off): the route alone
 *
 * With --prof, once the servers have stopped (a profile is written at exit), it prints where each side's CPU went,
 * by kind of work, per event (tooling/bench/cpu-profile.ts).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { printProfiles } from "./cpu-profile";
import { BENCH_DIST_DIR, REFERENCE_DIR, benchDatabase, cpuMs, freePort, productionEnv, seedWebhookStores, stopProcess, waitForStatus } from "./support";
import { deliveries, drive } from "./webhooks";
import { nextBin } from "@/scripts/support/next-bin";

const option = (name: string) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1];
const EVENTS = Number(option("events") ?? 2000);
const ROUNDS = Number(option("rounds") ?? 3);
const PROFILE_DIR = option("prof");
const DIST = option("dist") ?? BENCH_DIST_DIR;
const BASE = option("base");
const JOBS_WORKER = option("jobs-worker");
const NEXT_BIN = nextBin();
const STORES = { app: 101, floor: 102, base: 103 } as const;
type Side = keyof typeof STORES;

function start(side: Side, databaseUrl: string, port: number): ChildProcess {
  const env = productionEnv(databaseUrl, port);
  if (side === "floor") delete env.NEXT_DIST_DIR;
  else env.NEXT_DIST_DIR = side === "base" ? BASE : DIST;
  if (side !== "floor" && JOBS_WORKER) env.JOBS_WORKER = JOBS_WORKER;
  const profile = PROFILE_DIR ? [`--cpu-prof`, `--cpu-prof-dir=${path.join(PROFILE_DIR, side)}`] : [];
  if (PROFILE_DIR) mkdirSync(path.join(PROFILE_DIR, side), { recursive: true });
  const args = [...profile, NEXT_BIN, "start", ...(side === "floor" ? [REFERENCE_DIR] : []), "-p", String(port), "-H", "127.0.0.1"];
  return spawn(process.execPath, args, { env, stdio: ["ignore", "ignore", "inherit"] });
}

async function main(): Promise<void> {
  if (!existsSync(path.join(DIST, "BUILD_ID"))) throw new Error(`no production build in ${DIST}: npm run bench builds it`);
  const database = await benchDatabase("bench_webhook_cpu");
  const servers: ChildProcess[] = [];
  // The floor last: the breakdown reads each side against it.
  const sides: Side[] = BASE ? ["app", "base", "floor"] : ["app", "floor"];
  // When the rounds began, on the clock a profile's samples are stamped with (cpu-profile.ts).
  let profiledFrom: number | undefined;
  try {
    await seedWebhookStores(database.url, Object.values(STORES));
    const processes = {} as Record<Side, ChildProcess>;
    const urls = {} as Record<Side, URL>;
    for (const side of sides) {
      const port = await freePort();
      processes[side] = start(side, database.url, port);
      servers.push(processes[side]);
      urls[side] = new URL(`http://127.0.0.1:${port}/api/webhooks`);
    }
    for (const side of sides) await waitForStatus(urls[side].href, processes[side], [401], { method: "POST", body: "{}" });
    for (const side of sides) await drive(urls[side], deliveries(STORES[side], 300, 1));

    const totals = Object.fromEntries(sides.map((side) => [side, { ms: 0, events: 0, seconds: 0 }])) as Record<Side, { ms: number; events: number; seconds: number }>;
    const loadBefore = os.loadavg()[0]!;
    profiledFrom = Number(process.hrtime.bigint() / 1000n);
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
        const events = deliveries(STORES[side], EVENTS, 1_000_000 + round * EVENTS);
        const before = cpuMs(processes[side].pid!);
        const sample = await drive(urls[side], events);
        const used = cpuMs(processes[side].pid!) - before;
        if (sample.failures > 0) console.log(`${side}: ${sample.failures} non-2xx answers`);
        totals[side].ms += used;
        totals[side].events += sample.events;
        totals[side].seconds += sample.seconds;
        console.log(`round ${round + 1} ${side}: ${(used / sample.events).toFixed(3)} ms CPU/event, ${(sample.events / sample.seconds).toFixed(0)} events/s`);
      }
    }
    const [loadAfter] = os.loadavg();
    const per = (side: Side) => totals[side].ms / totals[side].events;
    for (const side of sides) {
      console.log(`${side}: ${per(side).toFixed(3)} ms CPU/event (${(totals[side].events / totals[side].seconds).toFixed(0)} events/s), ${(per(side) / per("floor")).toFixed(2)}x the floor's CPU`);
    }
    console.log(`load average ${loadBefore.toFixed(1)} before, ${loadAfter!.toFixed(1)} after, on ${os.cpus().length} cores`);
  } finally {
    await Promise.all(servers.map((server) => stopProcess(server)));
    await database.drop();
  }
  // The profiles from the rounds on: each side's share of them is every round's events, the warm-up's left out.
  if (PROFILE_DIR) printProfiles(PROFILE_DIR, sides, ROUNDS * EVENTS, profiledFrom);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
