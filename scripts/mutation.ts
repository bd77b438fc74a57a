/**
 * `npm run test:mutation`: StrykerJS over the security core (stryker.config.mjs), then a per-file verdict.
 *
 * Stryker's `thresholds.break` is one score over all files, so a thoroughly tested file could carry a weak one
 * past it. This reads Stryker's JSON report and fails when any single file scores below PER_FILE_MINIMUM.
 * Extra arguments go to Stryker, e.g. `npm run test:mutation -- --mutate lib/webhooks/signature.ts`.
 */
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";

const PER_FILE_MINIMUM = 95;
const JSON_REPORT = "reports/mutation/mutation.json";
const HTML_REPORT = "reports/mutation/index.html";

type MutantStatus = "Killed" | "Survived" | "NoCoverage" | "Timeout" | "CompileError" | "RuntimeError" | "Ignored" | "Pending";
type Report = { files: Record<string, { source: string; mutants: { status: MutantStatus }[] }> };

export type FileScore = {
  file: string;
  killed: number;
  survived: number;
  noCoverage: number;
  disabled: number;
  /** Killed (a test failed, or the mutant hung past the timeout) out of every mutant that could run. */
  score: number;
};

/** Stryker's own definition: (killed + timeout) / (killed + timeout + survived + no coverage). */
export function scoreFiles(report: Report): FileScore[] {
  return Object.entries(report.files)
    .map(([file, { mutants }]) => {
      const count = (...statuses: MutantStatus[]) => mutants.filter((mutant) => statuses.includes(mutant.status)).length;
      const killed = count("Killed", "Timeout");
      const survived = count("Survived");
      const noCoverage = count("NoCoverage");
      const valid = killed + survived + noCoverage;
      return { file, killed, survived, noCoverage, disabled: count("Ignored"), score: valid === 0 ? 100 : (100 * killed) / valid };
    })
    .sort((a, b) => a.file.localeCompare(b.file));
}

function runStryker(args: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn("npx", ["stryker", "run", ...args], { stdio: "inherit" });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function main(): Promise<void> {
  const started = Date.now();
  const code = await runStryker(process.argv.slice(2));
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  if (code !== 0) {
    console.error(`\n✗ Stryker failed (exit ${code}) after ${minutes} min`);
    process.exit(code);
  }
  const scores = scoreFiles(JSON.parse(await readFile(JSON_REPORT, "utf8")) as Report);
  const width = Math.max(...scores.map((score) => score.file.length));
  console.log(`\nmutation score per file (minimum ${PER_FILE_MINIMUM}%), ${minutes} min:`);
  console.log(`  ${"file".padEnd(width)}  score    killed  survived  no test  disabled`);
  for (const score of scores) {
    const mark = score.score >= PER_FILE_MINIMUM ? "✓" : "✗";
    console.log(
      `${mark} ${score.file.padEnd(width)}  ${score.score.toFixed(1).padStart(5)}%  ${String(score.killed).padStart(6)}  ${String(score.survived).padStart(8)}  ${String(score.noCoverage).padStart(7)}  ${String(score.disabled).padStart(8)}`,
    );
  }
  console.log(`\nHTML report: ${HTML_REPORT}`);
  const failing = scores.filter((score) => score.score < PER_FILE_MINIMUM);
  if (failing.length > 0) {
    console.error(`✗ below ${PER_FILE_MINIMUM}%: ${failing.map((score) => score.file).join(", ")}`);
    process.exit(1);
  }
  console.log(`✓ every file at or above ${PER_FILE_MINIMUM}%`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
