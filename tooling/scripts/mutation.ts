/**
 * `npm run test:mutation`: StrykerJS over the security core (tooling/stryker.config.mjs), one run per group of
 * tooling/scripts/mutation-targets.ts, then one merged report and a per-file verdict.
 *
 * Each group runs `stryker run --mutate <its files>` with its own configuration: its tests in MUTATION_TEST_FILES,
 * which tooling/stryker.config.mjs turns into a vitest configuration that includes only those (tooling/vitest.mutation.config.ts),
 * and its own incremental cache and reports under reports/mutation/<group>/ (MUTATION_REPORT_DIR). Not Stryker's
 * `--testFiles`: with it, Stryker 10.1.1 switches a mutant of code run at import ("static") on after its module has
 * loaded, and counts it as a survivor (stryker-js#6144, open). The groups' JSON reports are merged into
 * reports/mutation/mutation.json and reports/mutation/index.html.
 *
 * Stryker's `thresholds.break` is one score over all files, so a thoroughly tested file could carry a weak one past
 * it: this fails when any single file scores below PER_FILE_MINIMUM.
 *
 * Arguments: `--mutate <files>` (comma-separated, as Stryker takes it) runs only the groups holding those files,
 * mutating only those files, with the group's tests unless `--testFiles` names others. A file no group holds is run
 * once as given, with every related test. Any other argument goes to each Stryker run (e.g. `--force`).
 */
import { spawn } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { loadavg } from "node:os";
import path from "node:path";
import { mutatedPath, selectGroups, type MutationGroup } from "./mutation-targets";
import { mergeReports, reportHtml, scoreFiles, type Report } from "./support/mutation-report";

const PER_FILE_MINIMUM = 95;
/** Stryker from tooling's own install (`npm run test:mutation` installs it first), with the configuration beside it. */
const STRYKER = [path.join(import.meta.dirname, "..", "node_modules", "@stryker-mutator", "core", "bin", "stryker.js"), "run", "tooling/stryker.config.mjs"];
const REPORT_DIR = "reports/mutation";
const UNMAPPED_GROUP = "unmapped";

/** One Stryker run: its arguments, the files it mutates, and the only tests it may run (all related ones when absent). */
type Run = { name: string; args: string[]; files: string[]; testFiles?: string[] };

function minutes(since: number): string {
  return `${((Date.now() - since) / 60_000).toFixed(1)} min`;
}

/** The machine's load averages over 1, 5 and 15 minutes, as `uptime` prints them. */
function load(): string {
  return `load ${loadavg()
    .map((value) => value.toFixed(2))
    .join(", ")}`;
}

/** Takes `--name value`, `--name=value` and the short form out of args; returns the values, comma-split. */
function takeOption(args: string[], names: string[]): string[] | undefined {
  let values: string[] | undefined;
  for (let index = 0; index < args.length; ) {
    const arg = args[index]!;
    const name = names.find((candidate) => arg === candidate || arg.startsWith(`${candidate}=`));
    if (!name) {
      index += 1;
      continue;
    }
    const inline = arg.length > name.length ? arg.slice(name.length + 1) : undefined;
    const value = inline ?? args[index + 1] ?? "";
    args.splice(index, inline === undefined ? 2 : 1);
    values = [...(values ?? []), ...value.split(",").filter(Boolean)];
  }
  return values;
}

function plan(argv: string[]): Run[] {
  const rest = [...argv];
  const mutate = takeOption(rest, ["--mutate", "-m"]) ?? [];
  const testFiles = takeOption(rest, ["--testFiles", "-t"]);
  const { groups, unmapped } = selectGroups(mutate);
  const runs: Run[] = groups.map((group: MutationGroup) => {
    const files = mutate.length === 0 ? group.mutate : mutate.filter((entry) => group.mutate.includes(mutatedPath(entry)));
    return { name: group.name, files, testFiles: testFiles ?? group.testFiles, args: ["--mutate", files.join(","), ...rest] };
  });
  if (unmapped.length > 0) runs.push({ name: UNMAPPED_GROUP, files: unmapped, testFiles, args: ["--mutate", unmapped.join(","), ...rest] });
  return runs;
}

type Env = Record<string, string | undefined>;

/** The environment of one Stryker run: where its reports go, and the tests its vitest configuration includes. */
function runEnvironment(run: Run, reportDir: string, base: Env = process.env): Env {
  const { MUTATION_TEST_FILES: _inherited, ...rest } = base;
  return { ...rest, MUTATION_REPORT_DIR: reportDir, ...(run.testFiles ? { MUTATION_TEST_FILES: run.testFiles.join(",") } : {}) };
}

function runStryker(run: Run, reportDir: string): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...STRYKER, ...run.args], { stdio: "inherit", env: runEnvironment(run, reportDir) as NodeJS.ProcessEnv });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function main(): Promise<void> {
  const started = Date.now();
  const runs = plan(process.argv.slice(2));
  console.log(`mutation testing: ${runs.length} run(s) of Stryker, one per group of tooling/scripts/mutation-targets.ts (${load()})`);
  const reports: { group: string; report: Report }[] = [];
  const failed: string[] = [];
  for (const [index, run] of runs.entries()) {
    const reportDir = path.join(REPORT_DIR, run.name);
    const runStarted = Date.now();
    console.log(`\n▶ [${index + 1}/${runs.length}] ${run.name}: ${run.files.join(", ")} (${minutes(started)} elapsed, ${load()})`);
    const tests = run.testFiles ? `MUTATION_TEST_FILES=${run.testFiles.join(",")} ` : "";
    console.log(`  ${tests}stryker run tooling/stryker.config.mjs ${run.args.join(" ")}`);
    const code = await runStryker(run, reportDir);
    if (code !== 0) {
      console.error(`✗ [${index + 1}/${runs.length}] ${run.name}: Stryker failed (exit ${code}) after ${minutes(runStarted)}`);
      failed.push(run.name);
      continue;
    }
    const report = JSON.parse(await readFile(path.join(reportDir, "mutation.json"), "utf8")) as Report;
    reports.push({ group: run.name, report });
    const scores = scoreFiles(report)
      .map((score) => `${score.file} ${score.score.toFixed(1)}%`)
      .join(", ");
    console.log(`■ [${index + 1}/${runs.length}] ${run.name} done in ${minutes(runStarted)} (${minutes(started)} elapsed, ${load()}): ${scores}`);
  }

  const merged = mergeReports(reports);
  await mkdir(REPORT_DIR, { recursive: true });
  await writeFile(path.join(REPORT_DIR, "mutation.json"), JSON.stringify(merged));
  await writeFile(path.join(REPORT_DIR, "index.html"), await reportHtml(merged, "npm run test:mutation"));

  const scores = scoreFiles(merged);
  const width = Math.max(4, ...scores.map((score) => score.file.length));
  console.log(`\nmutation score per file (minimum ${PER_FILE_MINIMUM}%), ${runs.length} run(s) in ${minutes(started)}, ${load()}:`);
  console.log(`  ${"file".padEnd(width)}  score    killed  survived  no test  disabled`);
  for (const score of scores) {
    const mark = score.score >= PER_FILE_MINIMUM ? "✓" : "✗";
    console.log(
      `${mark} ${score.file.padEnd(width)}  ${score.score.toFixed(1).padStart(5)}%  ${String(score.killed).padStart(6)}  ${String(score.survived).padStart(8)}  ${String(score.noCoverage).padStart(7)}  ${String(score.disabled).padStart(8)}`,
    );
  }
  console.log(`\nHTML report: ${REPORT_DIR}/index.html (each group's own: ${REPORT_DIR}/<group>/index.html)`);
  const failing = scores.filter((score) => score.score < PER_FILE_MINIMUM);
  if (failing.length > 0) console.error(`✗ below ${PER_FILE_MINIMUM}%: ${failing.map((score) => score.file).join(", ")}`);
  if (failed.length > 0) console.error(`✗ Stryker failed for: ${failed.join(", ")}`);
  if (failing.length > 0 || failed.length > 0) process.exit(1);
  console.log(`✓ every file at or above ${PER_FILE_MINIMUM}%`);
}

// Exported for tests and other scripts; the CLI runs only when this file is the entry point.
export { plan, runEnvironment };

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
