/**
 * `npm run dev` from the command to the first 200 on `/`, on a warm install: node_modules in place, and one
 * earlier start (not measured) has created the embedded database and filled Next's development cache, as on a
 * developer's second morning. Each run is the real command (`npm run dev`) in a process group of its own, on free
 * ports, with its own database folder and emulator state; the clock stops at the first 200 on `/` seen from
 * outside. Also printed: when the emulator answered, and the machine's load, which moves these times the most.
 *
 * Each start prints what it is waiting for every 15 s (the last answer of `/` and of the emulator, the machine's
 * load, the command's last line) and may take up to 10 minutes (BENCH_DEV_START_TIMEOUT_S); a warm start that
 * fails is reported beside the figure, which then rests on the others. Alone: `npm run bench -- dev-start`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { rm } from "node:fs/promises";
import os from "node:os";
import { freePort } from "@/scripts/support/free-port";
import type { BenchResult } from "./types";

const TARGET_SECONDS = 15;
const MEASURED_RUNS = 3;
const SCRATCH = ".data/bench-dev";
/**
 * BENCH_DEV_START=first: every measured start is a fresh clone's first (no development cache, no database, no
 * emulator state), as a newcomer's first `npm run dev` is; the empty app's starts in the devloop part follow suit.
 */
export const FIRST_STARTS = process.env.BENCH_DEV_START === "first";
/** The app's development output (next dev writes under <distDir>/dev; NEXT_DIST_DIR below). */
const DEV_OUTPUT = ".next-bench/dev";
/**
 * How long one start may take before it counts as failed. Generous: on a crowded 2-core machine (load 10 and up)
 * a first compile has taken minutes. BENCH_DEV_START_TIMEOUT_S moves it.
 */
const START_TIMEOUT_MS = Number(process.env.BENCH_DEV_START_TIMEOUT_S ?? 600) * 1000;
/** How often a start still waiting says so, with what it has seen. */
const PROGRESS_EVERY_MS = 15_000;
/**
 * How long the unmeasured first start stays up after its first page. Turbopack writes its development cache a few
 * seconds after the compiles go idle (a `turbopack-persistence` span in <distDir>/dev/trace, seconds long on a
 * loaded machine), and `next dev` kills its server 100 ms after a SIGTERM: stopped at its first 200, the first start
 * left the cache unwritten and the "warm" starts compiled again (22 to 43 s where a warm one took 5 to 16, same load).
 * A developer's server runs long enough. BENCH_DEV_SETTLE_S moves it.
 */
export const SETTLE_MS = Number(process.env.BENCH_DEV_SETTLE_S ?? 20) * 1000;

type Start = { toHome: number; toEmulator: number };

const seconds = (ms: number) => (ms / 1000).toFixed(1);
const load = () => (os.loadavg()[0] ?? 0).toFixed(1);

/** What a start has seen of one address: its last answer (a status, or why there was none), and a request in flight. */
type Seen = { last: string; askedAt?: number; stop?: boolean };

function describe(seen: Seen): string {
  if (seen.askedAt === undefined) return seen.last;
  return `asked ${seconds(Date.now() - seen.askedAt)} s ago, no answer yet (before: ${seen.last})`;
}

/** Polls `url` until `ok(status)`, keeping `seen` up to date. */
export async function firstAnswer(url: string, ok: (status: number) => boolean, deadline: number, seen: Seen): Promise<number | null> {
  while (Date.now() < deadline && !seen.stop) {
    seen.askedAt = Date.now();
    try {
      // A first request may wait for the whole compile: let it, up to the start's own deadline.
      const response = await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(Math.max(1_000, deadline - Date.now())) });
      await response.body?.cancel();
      seen.last = `HTTP ${response.status}`;
      if (ok(response.status)) return Date.now();
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      seen.last = cause === "ECONNREFUSED" ? "not listening yet" : `no answer (${cause ?? (error as Error).name})`;
    }
    seen.askedAt = undefined;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return null;
}

/** Keeps the last lines of a stream, for the message of a start that failed. */
function tail(stream: NodeJS.ReadableStream | null, keep: string[]): void {
  stream?.on("data", (chunk: Buffer) => {
    keep.push(...chunk.toString().split("\n").filter((line) => line.trim()));
    keep.splice(0, Math.max(0, keep.length - 15));
  });
}

export async function stopGroup(child: ChildProcess): Promise<void> {
  if (!child.pid) return;
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // Already gone.
    }
  };
  signal("SIGTERM");
  const exited = new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(null) : child.once("exit", resolve)));
  const killed = setTimeout(() => signal("SIGKILL"), 15_000);
  await exited;
  clearTimeout(killed);
  // The database folder must be free before the next run opens it.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
}

async function startOnce(label: string, settleMs = 0): Promise<Start> {
  if (FIRST_STARTS) for (const folder of [SCRATCH, DEV_OUTPUT]) await rm(folder, { recursive: true, force: true });
  const [appPort, emulatorPort] = [await freePort(), await freePort()];
  console.log(`  ${label}: npm run dev (app on ${appPort}, emulator on ${emulatorPort}), load ${load()} …`);
  const started = Date.now();
  const child = spawn("npm", ["run", "dev"], {
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      NODE_ENV: "development",
      PORT: String(appPort),
      EMULATOR_PORT: String(emulatorPort),
      PGLITE_DIR: `${SCRATCH}/pglite`,
      EMULATOR_DATA_FILE: `${SCRATCH}/emulator.json`,
      // next dev writes under <dist>/dev, beside the benchmarks' build.
      NEXT_DIST_DIR: ".next-bench",
    },
  });
  const output: string[] = [];
  tail(child.stdout, output);
  tail(child.stderr, output);
  const home: Seen = { last: "not asked yet" };
  const emulatorSeen: Seen = { last: "not asked yet" };
  let emulatorAt: number | null = null;
  const progress = setInterval(() => {
    const lastLine = output.at(-1)?.trim().slice(0, 140) ?? "(nothing printed yet)";
    console.log(
      `    … ${seconds(Date.now() - started)} s: / ${describe(home)}; emulator ${emulatorAt ? `up after ${seconds(emulatorAt - started)} s` : describe(emulatorSeen)}; load ${load()}; last line: ${lastLine}`,
    );
  }, PROGRESS_EVERY_MS);
  try {
    const deadline = started + START_TIMEOUT_MS;
    const exited = new Promise<null>((resolve) => child.once("exit", () => resolve(null)));
    const [homeAt, emulator] = await Promise.all([
      Promise.race([firstAnswer(`http://localhost:${appPort}/`, (status) => status === 200, deadline, home), exited]),
      Promise.race([
        firstAnswer(`http://localhost:${emulatorPort}/_emulator/clock`, (status) => status === 200, deadline, emulatorSeen).then((at) => (emulatorAt = at)),
        exited,
      ]),
    ]);
    if (homeAt === null || emulator === null) {
      const why = child.exitCode !== null ? `npm run dev exited with ${child.exitCode}` : `no 200 on / within ${seconds(START_TIMEOUT_MS)} s (last: ${home.last})`;
      throw new Error(`${why}; its last lines:\n${output.join("\n")}`);
    }
    const result = { toHome: (homeAt - started) / 1000, toEmulator: (emulator - started) / 1000 };
    console.log(`    / answered 200 after ${result.toHome.toFixed(1)} s (emulator after ${result.toEmulator.toFixed(1)} s), load ${load()}`);
    if (settleMs > 0) {
      console.log(`    staying up ${seconds(settleMs)} s more, for Turbopack to write its cache`);
      await new Promise((resolve) => setTimeout(resolve, settleMs));
    }
    return result;
  } finally {
    clearInterval(progress);
    home.stop = emulatorSeen.stop = true;
    await stopGroup(child);
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

export async function benchDevStart(): Promise<BenchResult> {
  await rm(SCRATCH, { recursive: true, force: true });
  const loadAtStart = os.loadavg()[0] ?? 0;
  const cold = FIRST_STARTS ? null : await startOnce("first start (not measured: creates the database and fills Next's cache)", SETTLE_MS);
  const kind = FIRST_STARTS ? "first" : "warm";
  const runs: Start[] = [];
  const failures: string[] = [];
  for (let index = 0; index < MEASURED_RUNS; index += 1) {
    try {
      runs.push(await startOnce(`${kind} start ${index + 1}/${MEASURED_RUNS}`));
    } catch (error) {
      // One start lost to a crowded machine does not void the others; the figure says how many it rests on.
      const message = error instanceof Error ? error.message : String(error);
      failures.push(message.split("\n")[0] ?? message);
      console.log(`    ✗ ${message}`);
    }
  }
  if (runs.length === 0) throw new Error(`no ${kind} start answered: ${failures.join("; ")}`);
  const home = median(runs.map((run) => run.toHome));
  const emulator = median(runs.map((run) => run.toEmulator));
  const loadAtEnd = os.loadavg()[0] ?? 0;
  const cores = os.cpus().length;
  const lines = [
    `median of ${runs.length} ${kind} starts: **${home.toFixed(1)} s** (runs: ${runs.map((run) => run.toHome.toFixed(1)).join(", ")} s); target ${TARGET_SECONDS} s on 2 cores`,
    `emulator answering after ${emulator.toFixed(1)} s (median)${cold ? `; the first start of all, which creates the database and Next's cache: ${cold.toHome.toFixed(1)} s` : ""}`,
    `machine load: ${loadAtStart.toFixed(1)} at the start, ${loadAtEnd.toFixed(1)} at the end, on ${cores} cores (a load above the core count slows every figure here in proportion)`,
  ];
  if (failures.length) lines.push(`${failures.length} of ${MEASURED_RUNS} ${kind} starts gave no 200 within ${seconds(START_TIMEOUT_MS)} s: ${failures.join("; ")}`);
  return {
    title: `\`npm run dev\`: from the command to the first 200 on \`/\` (${FIRST_STARTS ? "first start of a fresh clone" : "warm install"})`,
    lines,
    figures: { devStartSeconds: home, ...(cold ? { devStartColdSeconds: cold.toHome } : {}), emulatorStartSeconds: emulator, loadAverage: loadAtStart },
  };
}
