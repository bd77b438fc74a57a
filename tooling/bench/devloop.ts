/**
 * The developer's loop: `npm run dev` to its first page and `npm test` with each of its phases, each beside its
 * floor on the same machine in the same run: an empty Next.js app (tooling/bench/reference, same next and react) started
 * with `next dev` for the dev start, and built with `next build` for the build phase. Targets (issue 38): dev start
 * within 2× the empty app's, `npm test` whole within 6 minutes on 2 cores.
 *
 * The dev start is the dev-start part's own measurement (a first start not measured, then the median of three warm
 * starts); the empty app gets the same treatment. `npm test` runs once, whole; its phases are read from the summary
 * it prints (tooling/bench/test-phases.ts). `BENCH_DEVLOOP_NO_E2E=1` runs `npm test -- --no-e2e` instead (no build, no browser tests) where a whole
 * run does not fit. Alone: `npm run bench -- devloop`. `BENCH_DEV_START=first` compares first starts of a fresh clone
 * (tooling/bench/dev-start.ts) and `BENCH_DEVLOOP_DEV_ONLY=1` stops after the two dev starts.
 */
import { spawn } from "node:child_process";
import { rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { spawnGroup } from "@/scripts/support/process-group";
import { benchDevStart, firstAnswer, FIRST_STARTS, SETTLE_MS, stopGroup } from "./dev-start";
import { freePort, median, REFERENCE_DIR } from "./support";
import { parsePhases } from "./test-phases";
import type { BenchResult } from "./types";
import { nextBin } from "@/scripts/support/next-bin";

const DEV_RATIO_TARGET = 2;
const NPM_TEST_TARGET_SECONDS = 6 * 60;
const WARM_RUNS = 3;
const NEXT_BIN = nextBin();
const load = () => (os.loadavg()[0] ?? 0).toFixed(1);

/** `next dev` of the empty app to its first 200 on `/`, in seconds. */
async function referenceDevStart(label: string, settleMs = 0): Promise<number> {
  if (FIRST_STARTS) await rm(path.join(REFERENCE_DIR, ".next-bench", "dev"), { recursive: true, force: true });
  const port = await freePort();
  console.log(`  ${label}: next dev ${REFERENCE_DIR} on ${port}, load ${load()} …`);
  const started = Date.now();
  const child = spawn(process.execPath, [NEXT_BIN, "dev", REFERENCE_DIR, "-p", String(port)], {
    detached: true,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...cleanEnv(), NODE_ENV: "development" },
  });
  try {
    const at = await firstAnswer(`http://localhost:${port}/`, (status) => status === 200, started + 600_000, { last: "not asked yet" });
    if (at === null) throw new Error("the empty app's next dev gave no 200 on / within 10 minutes");
    console.log(`    / answered 200 after ${((at - started) / 1000).toFixed(1)} s`);
    // The same first start as the app's: up until Turbopack has written its cache (dev-start.ts SETTLE_MS).
    if (settleMs > 0) await new Promise((resolve) => setTimeout(resolve, settleMs));
    return (at - started) / 1000;
  } finally {
    await stopGroup(child);
  }
}

/** The bench's environment without what would steer a child's build or mode (each part sets its own). */
function cleanEnv(): NodeJS.ProcessEnv {
  const kept = Object.entries(process.env).filter(([name]) => name !== "NEXT_DIST_DIR" && name !== "NODE_ENV");
  return { ...Object.fromEntries(kept), NEXT_TELEMETRY_DISABLED: "1" } as unknown as NodeJS.ProcessEnv;
}

async function timed(command: string, args: string[], env: Record<string, string> = {}): Promise<{ seconds: number; code: number; output: string }> {
  const started = Date.now();
  const { child, exited } = spawnGroup(command, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...cleanEnv(), ...env } });
  // Both streams, in arrival order: a failed run prints its summary on stderr.
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
    process.stdout.write(chunk);
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
    process.stderr.write(chunk);
  });
  const code = await exited;
  return { seconds: (Date.now() - started) / 1000, code, output };
}

/**
 * What a fresh clone lacks and a working tree keeps, where issue 38 sets the target: the incremental type-check's
 * file, the test build's folder (scripts/test.ts's default), vitest's timings (they order its files) and
 * Playwright's transform cache. Warm, the same suite ran 80 s shorter.
 */
function freshCloneLacks(): string[] {
  return [
    "tsconfig.tsbuildinfo",
    process.env.NEXT_DIST_DIR ?? ".next-test",
    path.join("node_modules", ".vite", "vitest"),
    path.join(os.tmpdir(), `playwright-transform-cache-${process.getuid?.() ?? 0}`),
  ];
}

export async function benchDevloop(): Promise<BenchResult> {
  const loadAtStart = load();
  const app = await benchDevStart();
  const appDev = app.figures.devStartSeconds!;

  // Its development output (next dev writes under <distDir>/dev): the first start below fills it again.
  await rm(path.join(REFERENCE_DIR, ".next-bench", "dev"), { recursive: true, force: true });
  if (!FIRST_STARTS) await referenceDevStart("empty app, first start (not measured: fills Next's cache)", SETTLE_MS);
  const kind = FIRST_STARTS ? "first" : "warm";
  const floorRuns: number[] = [];
  for (let run = 1; run <= WARM_RUNS; run++) floorRuns.push(await referenceDevStart(`empty app, ${kind} start ${run}/${WARM_RUNS}`));
  const floorDev = median(floorRuns);
  // The dev-start part's own line names each run, "(runs: 6.5, 6.5, 6.4 s)": only the runs belong here.
  const appRuns = app.lines[0]?.match(/\(runs: ([^)]*)\)/)?.[1];
  const devLine = `\`npm run dev\` to the first page: **${appDev.toFixed(1)} s** (median of ${WARM_RUNS} ${kind} starts${appRuns ? `: ${appRuns}` : ""}); the empty app's \`next dev\`: ${floorDev.toFixed(1)} s (runs ${floorRuns.map((value) => value.toFixed(1)).join(", ")} s): **${(appDev / floorDev).toFixed(2)}×**, target ≤ ${DEV_RATIO_TARGET}× (${appDev / floorDev <= DEV_RATIO_TARGET ? "met" : "not met"})`;
  // BENCH_DEVLOOP_DEV_ONLY=1: the two dev starts side by side, without the builds and the whole npm test.
  if (process.env.BENCH_DEVLOOP_DEV_ONLY === "1") {
    return {
      title: "The developer's loop: `npm run dev` beside an empty Next.js app",
      lines: [devLine, ...app.lines.slice(1), `machine load: ${loadAtStart} at the start, ${load()} at the end, on ${os.cpus().length} cores`],
      figures: { devStartSeconds: appDev, referenceDevStartSeconds: floorDev, devStartRatio: appDev / floorDev },
    };
  }

  console.log(`  the empty app's production build, load ${load()} …`);
  const floorBuild = await timed(process.execPath, [NEXT_BIN, "build", REFERENCE_DIR], { NODE_ENV: "production" });
  if (floorBuild.code !== 0) throw new Error(`the empty app's next build exited with ${floorBuild.code}`);

  const noE2e = process.env.BENCH_DEVLOOP_NO_E2E === "1";
  for (const cache of freshCloneLacks()) await rm(cache, { recursive: true, force: true });
  console.log(`  npm test${noE2e ? " -- --no-e2e" : ""}, as on a fresh clone (its caches removed), load ${load()} …`);
  const loadBeforeTests = load();
  const suite = await timed("npm", noE2e ? ["test", "--", "--no-e2e"] : ["test"]);
  const phases = parsePhases(suite.output);
  const totals = /^tests: (\d+) passed, (\d+) failed/m.exec(suite.output);

  const ratio = appDev / floorDev;
  const build = phases.find((phase) => phase.name === "production build");
  const lines = [
    devLine,
    `\`npm test${noE2e ? " -- --no-e2e" : ""}\`: **${suite.seconds.toFixed(0)} s** (${(suite.seconds / 60).toFixed(1)} min), ${suite.code === 0 ? "passed" : `**failed** (exit ${suite.code})`}${totals ? `, ${totals[1]} tests passed, ${totals[2]} failed` : ""}; target ≤ ${NPM_TEST_TARGET_SECONDS} s whole on 2 cores${noE2e ? " (not comparable: no build, no browser tests)" : ` (${suite.seconds <= NPM_TEST_TARGET_SECONDS ? "met" : "not met"})`}; load ${loadBeforeTests} when it started`,
    ...phases.map(
      (phase) =>
        `${phase.name}: ${phase.seconds.toFixed(1)} s${phase.passed ? "" : " (failed)"}${phase === build ? `; the empty app's build: ${floorBuild.seconds.toFixed(1)} s (${(phase.seconds / floorBuild.seconds).toFixed(2)}×)` : ""}`,
    ),
    ...(build ? [] : [`the empty app's build: ${floorBuild.seconds.toFixed(1)} s`]),
    // scripts/test.ts runs steps side by side, so the phases add up to more than the whole.
    "the phases overlap: the route types and the type-check run beside lint, and vitest beside the production build and then the browser tests",
    `machine load: ${loadAtStart} at the start, ${load()} at the end, on ${os.cpus().length} cores`,
  ];
  return {
    title: "The developer's loop: `npm run dev` and `npm test` beside an empty Next.js app",
    lines,
    figures: {
      devStartSeconds: appDev,
      referenceDevStartSeconds: floorDev,
      devStartRatio: ratio,
      npmTestSeconds: suite.seconds,
      referenceBuildSeconds: floorBuild.seconds,
      ...Object.fromEntries(phases.map((phase) => [`phase:${phase.name}`, phase.seconds])),
    },
  };
}
