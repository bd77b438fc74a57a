/**
 * `npx tsx --conditions=react-server tooling/bench/orders-cpu.ts`, once `npm run bench` has built both apps: the server CPU
 * each orders-page variant costs, app beside the signed-in floor (the reference's /signed page, same variant) and
 * the bare floor (the reference's 50-row page), and optionally a CPU profile of each server. Times on a shared
 * machine move with everyone's load; a server's own CPU per request (from /proc,
 * user + system, the database not counted) moves far less, so this is the figure to compare changes with.
 *
 *   --requests=N  requests per variant and side (default 300), after 30 warm-up ones
 *   --prof=DIR    run each server under `node --cpu-prof` and leave its .cpuprofile in DIR/<side>
 *   --dist=DIR    the app's build folder (default .next-bench, as `npm run bench` builds it)
 *   --base=DIR    another checkout of the app (an earlier commit's), built into its own .next-bench, measured
 *                 beside it as "base": the requests interleave, so both see the same machine
 *   --base-dist=DIR  the same, from another build folder of this checkout (an earlier build copied aside, e.g.
 *                 `cp -a .next-bench .next-bench-base` before a change)
 *   --jobs-worker=off  the app (and base) without the job worker inside its process (JOBS_WORKER=off): the page
 *                 alone, without the worker's polling between requests (the default, inline, is what a deploy runs)
 *   --html=DIR    also leave each variant's HTML in DIR, and the floor page's, to see what a page sends
 *   --variant=KEY only that variant (firstPage, statusFilter, phoneFilter, deepPage), so a profile holds one page
 *   --forks=N     N fresh sets of server processes, one after another, the requests split between them (default 1):
 *                 a process's JIT settles differently at each start, and one start a side can move a comparison of two
 *                 builds by 5%. Not with --prof (a profile is one process's)
 *
 * With --prof, once the servers have stopped (a profile is written at exit), it prints where each side's CPU went,
 * by kind of work, per request (tooling/bench/cpu-profile.ts).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { printProfiles } from "./cpu-profile";
import { ordersVariants, prepareOrdersDatabase, SIGNED_FLOOR_PATH, STORE } from "./orders-page";
import { BENCH_DIST_DIR, REFERENCE_DIR, benchDatabase, cpuMs, freePort, productionEnv, stopProcess, waitForStatus } from "./support";
import { nextBin } from "@/scripts/support/next-bin";

const option = (name: string) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1];
const REQUESTS = Number(option("requests") ?? 300);
const WARMUP = 30;
const PROFILE_DIR = option("prof");
const DIST = option("dist") ?? BENCH_DIST_DIR;
const BASE = option("base");
const BASE_DIST = option("base-dist");
const JOBS_WORKER = option("jobs-worker");
const HTML_DIR = option("html");
const VARIANT = option("variant");
const FORKS = Math.max(1, Number(option("forks") ?? 1));
const NEXT_BIN = nextBin();

/** floor: the reference's bare 50-row page; signed: its signed-in floor page (a process of its own, so each profiles apart). */
type Side = "app" | "base" | "signed" | "floor";
const FLOORS: readonly Side[] = ["signed", "floor"];

function start(side: Side, databaseUrl: string, port: number): ChildProcess {
  const env = productionEnv(databaseUrl, port);
  if (FLOORS.includes(side)) delete env.NEXT_DIST_DIR;
  else if (JOBS_WORKER) env.JOBS_WORKER = JOBS_WORKER;
  else env.NEXT_DIST_DIR = side === "app" ? DIST : (BASE_DIST ?? BENCH_DIST_DIR);
  const profile = PROFILE_DIR ? [`--cpu-prof`, `--cpu-prof-dir=${path.join(PROFILE_DIR, side)}`] : [];
  if (PROFILE_DIR) mkdirSync(path.join(PROFILE_DIR, side), { recursive: true });
  const dir = FLOORS.includes(side) ? [REFERENCE_DIR] : side === "base" && BASE ? [BASE] : [];
  const args = [...profile, NEXT_BIN, "start", ...dir, "-p", String(port), "-H", "127.0.0.1"];
  return spawn(process.execPath, args, { env, stdio: ["ignore", "ignore", "inherit"] });
}

async function fetchBody(url: string, headers: Record<string, string>, marker: string, saveAs?: string): Promise<number> {
  const response = await fetch(url, { headers });
  const body = await response.text();
  if (response.status !== 200 || !body.includes(marker)) throw new Error(`GET ${url} answered ${response.status} without "${marker}"`);
  if (saveAs && HTML_DIR) writeFileSync(path.join(HTML_DIR, `${saveAs}.html`), body);
  return Buffer.byteLength(body);
}

async function main(): Promise<void> {
  if (!existsSync(path.join(DIST, "BUILD_ID"))) throw new Error(`no production build in ${DIST}: npm run bench builds it`);
  if (BASE && !existsSync(path.join(BASE, BENCH_DIST_DIR, "BUILD_ID"))) throw new Error(`no production build in ${BASE}/${BENCH_DIST_DIR}`);
  if (BASE_DIST && !existsSync(path.join(BASE_DIST, "BUILD_ID"))) throw new Error(`no production build in ${BASE_DIST}`);
  if (HTML_DIR) mkdirSync(HTML_DIR, { recursive: true });
  if (PROFILE_DIR && FORKS > 1) throw new Error("--prof profiles one set of servers: leave out --forks");
  const database = await benchDatabase("bench_orders_cpu");
  let servers: ChildProcess[] = [];
  const sides: Side[] = BASE || BASE_DIST ? ["app", "base", "signed", "floor"] : ["app", "signed", "floor"];
  const perFork = Math.ceil(REQUESTS / FORKS);
  let requests = 0;
  // The profiles' part that is requests: from the end of the first warm-up on (a profile is the last start's).
  let profiledFrom: number | undefined;
  let profiledRequests = 0;
  try {
    const { cookie, phone, deepCursor } = await prepareOrdersDatabase(database.url);
    // The variants' keys and labels, which do not depend on the server asked.
    const variantList = ordersVariants("", phone, deepCursor);
    const variantKeys = variantList.map((variant) => variant.key);
    if (VARIANT && !variantKeys.includes(VARIANT)) throw new Error(`no variant ${VARIANT}: ${variantKeys.join(", ")}`);
    // used[variant][side]: CPU over every start; bytes[variant][side]: the last answer's size.
    const used: Record<Side, number>[] = variantKeys.map(() => Object.fromEntries(sides.map((side) => [side, 0])) as Record<Side, number>);
    const bytes: Record<Side, number>[] = variantKeys.map(() => ({}) as Record<Side, number>);
    const loadBefore = os.loadavg()[0]!;
    for (let fork = 0; fork < FORKS; fork++) {
      const processes = {} as Record<Side, ChildProcess>;
      const bases = {} as Record<Side, string>;
      for (const side of sides) {
        const port = await freePort();
        processes[side] = start(side, database.url, port);
        servers.push(processes[side]);
        const page = side === "floor" ? "/rows" : side === "signed" ? SIGNED_FLOOR_PATH : `/stores/${STORE}/orders`;
        bases[side] = `http://127.0.0.1:${port}${page}`;
      }
      await Promise.all(sides.map((side) => waitForStatus(bases[side], processes[side], [200], { headers: { cookie } })));
      const appVariants = ordersVariants(bases.app, phone, deepCursor);
      const baseVariants = BASE || BASE_DIST ? ordersVariants(bases.base, phone, deepCursor) : [];
      const signedVariants = ordersVariants(bases.signed, phone, deepCursor);
      for (const [index, variant] of appVariants.entries()) {
        if (VARIANT && variant.key !== VARIANT) continue;
        for (let round = 0; round < WARMUP + perFork; round++) {
          const save = round === 0 && fork === 0;
          if (round === WARMUP && fork === FORKS - 1) profiledFrom ??= Number(process.hrtime.bigint() / 1000n);
          if (profiledFrom !== undefined) profiledRequests++;
          for (const side of sides) {
            const url = { floor: bases.floor, signed: signedVariants[index]!.url, app: variant.url, base: baseVariants[index]?.url ?? "" }[side];
            const marker = `ORD-${STORE}-`;
            const before = cpuMs(processes[side].pid!);
            bytes[index]![side] = await fetchBody(url, side === "floor" ? {} : { cookie }, marker, save ? `${variant.key}-${side}` : undefined);
            if (round >= WARMUP) used[index]![side] += cpuMs(processes[side].pid!) - before;
          }
        }
        requests += WARMUP + perFork;
      }
      // The last set is stopped below, in `finally`: a profiled server writes its profile as it exits.
      if (fork < FORKS - 1) {
        await Promise.all(servers.map((server) => stopProcess(server)));
        servers = [];
      }
    }
    const totals = Object.fromEntries(sides.map((side) => [side, 0])) as Record<Side, number>;
    for (const [index, key] of variantKeys.entries()) {
      if (VARIANT && key !== VARIANT) continue;
      const cpu = used[index]!;
      for (const side of sides) totals[side] += cpu[side];
      const timed = perFork * FORKS;
      const per = (side: Side) =>
        `${side} ${(cpu[side] / timed).toFixed(2)} ms (${(cpu[side] / cpu.signed).toFixed(2)}x signed-in, ${(cpu[side] / cpu.floor).toFixed(2)}x bare, ${(bytes[index]![side] / 1024).toFixed(1)} kB)`;
      console.log(`${variantList[index]!.label}: ${sides.map(per).join(", ")}${FORKS > 1 ? ` (${FORKS} server starts a side)` : ""}`);
    }
    console.log(`all variants, CPU per request against the signed-in floor's: ${sides.map((side) => `${side} ${(totals[side] / totals.signed).toFixed(2)}x`).join(", ")}`);
    console.log(`all variants, CPU per request against the bare floor's: ${sides.map((side) => `${side} ${(totals[side] / totals.floor).toFixed(2)}x`).join(", ")}`);
    console.log(`load average ${loadBefore.toFixed(1)} before, ${os.loadavg()[0]!.toFixed(1)} after, on ${os.cpus().length} cores`);
  } finally {
    await Promise.all(servers.map((server) => stopProcess(server)));
    await database.drop();
  }
  if (PROFILE_DIR && requests > 0) printProfiles(PROFILE_DIR, sides, profiledRequests, profiledFrom);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
