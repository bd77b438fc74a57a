/**
 * `npm run bench`: builds the app once into .next-bench, runs every benchmark in turn, prints its figures and
 * writes them into the README between the bench markers. Loopback traffic only, bounded in count and time.
 */
import { spawn } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import type { BenchResult } from "./types";

type Bench = { name: string; run: () => Promise<BenchResult> };

const BENCHES: Bench[] = [
  { name: "API client pacing", run: async () => (await import("./pacing")).benchPacing() },
  { name: "webhook receiver", run: async () => (await import("./webhooks")).benchWebhooks() },
  { name: "orders page", run: async () => (await import("./orders-page")).benchOrdersPage() },
  { name: "first-load JavaScript", run: async () => (await import("./first-load-js")).benchFirstLoadJs(".next-bench") },
];

const only = process.argv.slice(2).filter((arg) => !arg.startsWith("-"));
const skipBuild = process.argv.includes("--no-build");

function build(): Promise<void> {
  return new Promise((resolve, reject) => {
    console.log("▶ building the app for the benchmarks (next build → .next-bench) …");
    const child = spawn("npx", ["next", "build"], {
      stdio: ["ignore", "inherit", "inherit"],
      env: { ...process.env, NEXT_DIST_DIR: ".next-bench", NODE_ENV: "production" },
    });
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`next build exited with ${code}`))));
  });
}

async function writeReadme(results: BenchResult[]): Promise<void> {
  const readme = await readFile("README.md", "utf8");
  const start = "<!-- bench:start -->";
  const end = "<!-- bench:end -->";
  const from = readme.indexOf(start);
  const to = readme.indexOf(end);
  if (from < 0 || to < from) {
    console.warn("README.md has no bench markers; figures not written.");
    return;
  }
  const machine = `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`;
  const body = [
    start,
    `_Measured by \`npm run bench\` on ${machine}._`,
    "",
    ...results.flatMap((result) => [`**${result.title}**`, "", ...result.lines.map((line) => `- ${line}`), ""]),
    end,
  ].join("\n");
  await writeFile("README.md", readme.slice(0, from) + body + readme.slice(to + end.length));
  console.log("✓ figures written to README.md");
}

async function main(): Promise<void> {
  const selected = only.length ? BENCHES.filter((bench) => only.some((name) => bench.name.includes(name))) : BENCHES;
  if (!skipBuild) await build();
  const results: BenchResult[] = [];
  let failed = false;
  for (const bench of selected) {
    console.log(`\n━━ ${bench.name} ━━`);
    const started = Date.now();
    try {
      const result = await bench.run();
      for (const line of result.lines) console.log(`  ${line}`);
      console.log(`  (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      results.push(result);
    } catch (error) {
      failed = true;
      console.error(`  ✗ ${bench.name} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (results.length === BENCHES.length) await writeReadme(results);
  else if (results.length) console.log("\n(figures not written to README.md: only a complete run updates it)");
  if (failed) process.exit(1);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
