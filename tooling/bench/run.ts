/**
 * `npm run bench`: builds the app into .next-bench and the reference app (tooling/bench/reference: a bare App Router app
 * on the same next, react and postgres, linking the app's stylesheet) into tooling/bench/reference/.next-bench, runs every benchmark in turn, prints its
 * figures and writes them into docs/benchmarks.md, each part into its own section (date, machine load, Node), so a
 * run of some parts refreshes those and leaves the others' last figures. Targets are ratios to the reference
 * measured in the same run, because absolute times on a shared machine move from run to run. Loopback traffic only.
 */
import { spawn } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { docLines, FIGURES_END, sectionSlug, spliceSection } from "./docs-sections";
import { REFERENCE_DIR } from "./support";
import type { BenchResult } from "./types";
import { nextBin } from "@/scripts/support/next-bin";

type Bench = { name: string; run: () => Promise<BenchResult>; onlyByName?: boolean };

const BENCHES: Bench[] = [
  { name: "API client pacing", run: async () => (await import("./pacing")).benchPacing() },
  { name: "webhook receiver", run: async () => (await import("./webhooks")).benchWebhooks() },
  { name: "orders page", run: async () => (await import("./orders-page")).benchOrdersPage() },
  { name: "first-load JavaScript", run: async () => (await import("./first-load-js")).benchFirstLoadJs() },
  { name: "dev start", run: async () => (await import("./dev-start")).benchDevStart() },
  { name: "phone pages (Lighthouse)", run: async () => (await import("./lighthouse")).benchLighthouse() },
  { name: "scale", run: async () => (await import("./scale")).benchScale() },
  { name: "order import jobs", run: async () => (await import("./jobs-backfill")).benchBackfill() },
  { name: "order polling jobs", run: async () => (await import("./polling-scale")).benchPollingScale() },
  { name: "order polling wave", run: async () => (await import("./polling-scale")).benchPollingWave() },
  { name: "idle app", run: async () => (await import("./idle")).benchIdle() },
  // Not in a plain `npm run bench`: it runs the whole `npm test` (many minutes). Asked for by name only.
  { name: "devloop", run: async () => (await import("./devloop")).benchDevloop(), onlyByName: true },
];

/**
 * `npm run bench -- first-load dev-start` runs only the parts whose name contains one of the words (spaces and
 * dashes alike, any case: pacing, webhook, orders, first-load, dev-start, lighthouse, scale, import, polling, idle, devloop;
 * devloop runs only when named, as it runs the whole `npm test`); `--no-build`
 * reuses the last builds (.next-bench, tooling/bench/reference/.next-bench); `--scripts` lists every page's scripts in the
 * first-load part; `--keep-scale-db` keeps the scale part's seeded database for the next run; `--polling-minutes=N`,
 * `--polling-large-minutes=N` and `--polling-stores=1000,10000` shape the polling part (tooling/bench/polling-scale.ts);
 * `--polling-wave=N` (default 1,000) and `--polling-wave-minutes=N` (default 3) the install-wave part.
 */
const words = (text: string) => text.toLowerCase().replace(/[-_\s]+/g, " ").trim();
const only = process.argv
  .slice(2)
  .filter((arg) => !arg.startsWith("-"))
  .map(words);
const skipBuild = process.argv.includes("--no-build");

function build(label: string, args: string[], distDir: string | null): Promise<void> {
  return new Promise((resolve, reject) => {
    console.log(`▶ building ${label} …`);
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" };
    if (distDir) env.NEXT_DIST_DIR = distDir;
    else delete env.NEXT_DIST_DIR;
    const child = spawn(process.execPath, [nextBin(), "build", ...args], {
      stdio: ["ignore", "inherit", "inherit"],
      env,
    });
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`next build of ${label} exited with ${code}`))));
  });
}

async function buildAll(): Promise<void> {
  await build("the app (→ .next-bench)", [], ".next-bench");
  // Its own folder and config: the reference shares only node_modules with the app.
  await build("the reference app (tooling/bench/reference → tooling/bench/reference/.next-bench)", [REFERENCE_DIR], null);
}

/** How busy the machine was: the benchmarks share it, so the docs say so beside the figures. */
function machineLoad(): string {
  const [one, five] = os.loadavg();
  return `load average ${one!.toFixed(1)} (1 min) / ${five!.toFixed(1)} (5 min) on ${os.cpus().length} cores`;
}

const DOCS = path.join("docs", "benchmarks.md");
/** Every line of each part's last run on this machine (not committed: the page holds the latest figures in brief). */
const RESULTS = path.join("tooling", "bench", "results");

/** Each part's figures replace its own section of docs/benchmarks.md, with the date, load and Node of this run. */
async function writeDocs(results: { name: string; result: BenchResult }[], loadAtStart: number, loadAtEnd: number): Promise<void> {
  let doc = await readFile(DOCS, "utf8").catch(() => `# Benchmarks\n\n${FIGURES_END}\n`);
  const machine = `${os.cpus().length} cores (${os.cpus()[0]?.model.trim() ?? "unknown CPU"}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  await mkdir(RESULTS, { recursive: true });
  for (const { name, result } of results) {
    const heading = [
      `### ${result.title}`,
      "",
      `_${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC; ${machine}; load ${loadAtStart.toFixed(1)} before, ${loadAtEnd.toFixed(1)} after (1-minute average)._`,
      "",
    ];
    doc = spliceSection(doc, sectionSlug(name), [...heading, ...docLines(result).map((line) => `- ${line}`)].join("\n"));
    const full = [...heading, ...result.lines.map((line) => `- ${line}`), ...(result.details?.length ? ["", ...result.details] : [])];
    await writeFile(path.join(RESULTS, `${sectionSlug(name)}.md`), `${full.join("\n")}\n`);
  }
  await writeFile(DOCS, doc);
  console.log(`✓ figures written to ${DOCS} (in brief) and ${RESULTS}/ (every line)`);
}

async function main(): Promise<void> {
  const selected = only.length
    ? BENCHES.filter((bench) => only.some((name) => words(bench.name).includes(name)))
    : BENCHES.filter((bench) => !bench.onlyByName);
  if (selected.length === 0) {
    console.error(`no benchmark matches ${only.join(", ")}; the parts: ${BENCHES.map((bench) => bench.name).join(", ")}`);
    process.exit(2);
  }
  // The dev start and the job parts need no production build: skip building when only they are asked for.
  const noBuild = new Set(["dev start", "order import jobs", "order polling jobs", "order polling wave", "devloop"]);
  const needsBuild = selected.some((bench) => !noBuild.has(bench.name));
  const loadAtStart = machineLoad();
  const oneMinuteAtStart = os.loadavg()[0]!;
  if (!skipBuild && needsBuild) await buildAll();
  const results: { name: string; result: BenchResult }[] = [];
  let failed = false;
  for (const bench of selected) {
    console.log(`\n━━ ${bench.name} ━━`);
    const started = Date.now();
    try {
      const result = await bench.run();
      for (const line of result.lines) console.log(`  ${line}`);
      console.log(`  (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      results.push({ name: bench.name, result });
    } catch (error) {
      failed = true;
      console.error(`  ✗ ${bench.name} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  console.log(`\nmachine load: ${loadAtStart} before, ${machineLoad()} after`);
  if (results.length) await writeDocs(results, oneMinuteAtStart, os.loadavg()[0]!);
  if (failed) process.exit(1);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
