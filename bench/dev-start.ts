/**
 * `npm run dev` from the command to the first 200 on `/`, on a warm install: node_modules in place, and one
 * earlier start (not measured) has created the embedded database and filled Next's development cache, as on a
 * developer's second morning. Each run is the real command (`npm run dev`) in a process group of its own, on free
 * ports, with its own database folder and emulator state; the clock stops at the first 200 on `/` seen from
 * outside. Also printed: when the emulator answered, and the machine's load, which moves these times the most.
 */
import { spawn } from "node:child_process";
import { rm } from "node:fs/promises";
import os from "node:os";
import { freePort } from "../scripts/support/free-port";
import type { BenchResult } from "./types";

const TARGET_SECONDS = 15;
const MEASURED_RUNS = 3;
const SCRATCH = ".data/bench-dev";

type Start = { toHome: number; toEmulator: number };

async function firstAnswer(url: string, ok: (status: number) => boolean, deadline: number): Promise<number | null> {
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(120_000) });
      await response.body?.cancel();
      if (ok(response.status)) return Date.now();
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return null;
}

async function startOnce(): Promise<Start> {
  const [appPort, emulatorPort] = [await freePort(), await freePort()];
  const started = Date.now();
  const child = spawn("npm", ["run", "dev"], {
    detached: true,
    stdio: ["ignore", "ignore", "pipe"],
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
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  try {
    const deadline = started + 300_000;
    const [home, emulator] = await Promise.all([
      firstAnswer(`http://localhost:${appPort}/`, (status) => status === 200, deadline),
      firstAnswer(`http://localhost:${emulatorPort}/_emulator/clock`, (status) => status === 200, deadline),
    ]);
    if (home === null || emulator === null) throw new Error(`npm run dev did not answer within 300 s: ${stderr}`);
    return { toHome: (home - started) / 1000, toEmulator: (emulator - started) / 1000 };
  } finally {
    if (child.pid) {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // Already gone.
      }
      await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once("exit", resolve)));
      // The database folder must be free before the next run opens it.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

export async function benchDevStart(): Promise<BenchResult> {
  await rm(SCRATCH, { recursive: true, force: true });
  const load = os.loadavg()[0] ?? 0;
  const cold = await startOnce();
  const runs: Start[] = [];
  for (let index = 0; index < MEASURED_RUNS; index += 1) runs.push(await startOnce());
  const home = median(runs.map((run) => run.toHome));
  const emulator = median(runs.map((run) => run.toEmulator));
  const cores = os.cpus().length;
  return {
    title: "`npm run dev`: from the command to the first 200 on `/` (warm install)",
    lines: [
      `median of ${MEASURED_RUNS} warm starts: **${home.toFixed(1)} s** (runs: ${runs.map((run) => run.toHome.toFixed(1)).join(", ")} s); target ${TARGET_SECONDS} s on 2 cores`,
      `emulator answering after ${emulator.toFixed(1)} s (median); the first start of all, which creates the database and Next's cache: ${cold.toHome.toFixed(1)} s`,
      `machine load at the start: ${load.toFixed(1)} on ${cores} cores (a load above the core count slows every figure here in proportion)`,
    ],
    figures: { devStartSeconds: home, devStartColdSeconds: cold.toHome, emulatorStartSeconds: emulator, loadAverage: load },
  };
}
