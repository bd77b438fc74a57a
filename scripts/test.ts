/**
 * `npm test`: the whole suite, each step printed with its time. Type-check beside lint; unit and integration tests
 * (vitest, on the embedded database or on TEST_DATABASE_URL) beside the production build; then the browser tests
 * (Playwright in Chromium against the build, two workers, each with an emulator and an app of its own).
 *
 * TEST_DATABASE_URL=postgres://... runs everything against that server instead: each vitest file gets a fresh
 * database on it, and the browser tests get one of their own.
 *
 *   npm test -- --no-e2e                 everything but the build and the browser tests
 *   npm test -- --e2e-only [-- <args>]   only the browser tests, on the existing build; <args> go to Playwright
 *
 * The browser: PLAYWRIGHT_CHROMIUM_PATH, else Playwright's own build, else a system Chromium or Chrome; when none is
 * found, Playwright's own is fetched first (`npx playwright install chromium`), so a fresh laptop needs nothing more
 * than `npm install` (scripts/support/chromium.ts decides, and playwright.config.ts launches the same one).
 *
 * Servers listen on free ports (tests/e2e/support/servers.ts). Each step runs in a process group of its own and
 * a SIGINT, SIGTERM or SIGHUP to this script is passed on to it, so a killed run leaves nothing running.
 */
import { readFile, rm } from "node:fs/promises";
import { openDatabase } from "../db/client";
import { createScratchDatabase, type ScratchDatabase } from "../db/scratch";
import { describeChromium, findChromium } from "./support/chromium";
import { spawnGroup, stopGroupsOnSignals } from "./support/process-group";
import { migrateDatabase } from "../lib/database/migrate";
import { e2eSlots, slotPgliteDir } from "../tests/e2e/support/slots";

type Step = { name: string; command: string; args: string[]; env?: Record<string, string> };

const serverUrl = process.env.TEST_DATABASE_URL;
const separator = process.argv.indexOf("--");
const ownArgs = separator === -1 ? process.argv.slice(2) : process.argv.slice(2, separator);
const playwrightArgs = separator === -1 ? [] : process.argv.slice(separator + 1);
const skipE2e = ownArgs.includes("--no-e2e");
const e2eOnly = ownArgs.includes("--e2e-only");
const distDir = process.env.NEXT_DIST_DIR ?? ".next-test";
const reportsDir = process.env.TEST_REPORTS_DIR ?? ".data/test-reports";
const e2ePgliteDir = process.env.E2E_PGLITE_DIR ?? ".data/e2e/pglite";
const vitestReport = `${reportsDir}/vitest.json`;
const playwrightReport = `${reportsDir}/playwright.json`;

type Counts = { passed: number; failed: number; skipped: number };

async function readCounts(): Promise<Counts> {
  const counts: Counts = { passed: 0, failed: 0, skipped: 0 };
  try {
    const vitest = JSON.parse(await readFile(vitestReport, "utf8")) as {
      numPassedTests: number;
      numFailedTests: number;
      numPendingTests: number;
      numTodoTests: number;
    };
    counts.passed += vitest.numPassedTests;
    counts.failed += vitest.numFailedTests;
    counts.skipped += vitest.numPendingTests + vitest.numTodoTests;
  } catch {
    // No report: the step did not run.
  }
  try {
    const playwright = JSON.parse(await readFile(playwrightReport, "utf8")) as {
      stats: { expected: number; unexpected: number; skipped: number; flaky: number };
    };
    counts.passed += playwright.stats.expected + playwright.stats.flaky;
    counts.failed += playwright.stats.unexpected;
    counts.skipped += playwright.stats.skipped;
  } catch {
    // No report: the step did not run.
  }
  return counts;
}

/** The closing line CI reads: plain "N passed, N failed" over vitest and Playwright together. */
async function printTotals(): Promise<void> {
  const counts = await readCounts();
  console.log(`\ntests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
}

function run(step: Step): Promise<number> {
  // stdin stays with us: a step in its own process group must not read the terminal.
  return spawnGroup(step.command, step.args, { stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, ...step.env } }).exited;
}

/** A step whose output is held and printed whole once it ends, so that it can run beside a step that prints live. */
async function runHeld(step: Step): Promise<number> {
  const { child, exited } = spawnGroup(step.command, step.args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...step.env } });
  const chunks: Buffer[] = [];
  child.stdout?.on("data", (chunk: Buffer) => chunks.push(chunk));
  child.stderr?.on("data", (chunk: Buffer) => chunks.push(chunk));
  const code = await exited;
  console.log(`\n━━ ${step.name}: its output ━━`);
  process.stdout.write(Buffer.concat(chunks));
  return code;
}

/**
 * Steps that run at once, each timed on its own: the first prints as it goes, the others when they end. Two cores
 * are rarely both busy with one of these steps (the type-check and lint are one thread each, and much of the vitest
 * step waits on timers and child processes), so a stage takes about as long as its longest step.
 */
async function runStage(stage: Step[], timings: string[]): Promise<number> {
  console.log(`\n━━ ${stage.map((step) => step.name).join(" ‖ ")} ━━`);
  const results = await Promise.all(
    stage.map(async (step, index) => {
      const stepStart = Date.now();
      const code = await (index === 0 ? run(step) : runHeld(step));
      return { step, code, seconds: ((Date.now() - stepStart) / 1000).toFixed(1) };
    }),
  );
  for (const { step, code, seconds } of results) timings.push(`${code === 0 ? "✓" : "✗"} ${step.name} (${seconds}s)`);
  return results.find((result) => result.code !== 0)?.code ?? 0;
}

async function createE2eDatabase(serverUrl: string): Promise<ScratchDatabase> {
  const scratch = await createScratchDatabase(serverUrl, "starter_e2e");
  const handle = await openDatabase({ url: scratch.url, maxConnections: 1 });
  await migrateDatabase(handle);
  await handle.close();
  return scratch;
}

/**
 * Before any step, so a browser that cannot be had fails the run in seconds, not after the build. Exits on a
 * configured path that does not exist or a fetch that fails, saying what to do.
 */
async function ensureChromium(): Promise<void> {
  const choice = findChromium();
  console.log(describeChromium(choice));
  if (choice.kind === "configured-missing") {
    console.error("✗ Point PLAYWRIGHT_CHROMIUM_PATH at a Chromium or Chrome executable, or unset it to let npm test find one.");
    process.exit(1);
  }
  if (choice.kind !== "fetch") return;
  console.log("\n━━ fetching Playwright's Chromium (npx playwright install chromium; once per machine) ━━");
  const code = await run({ name: "fetch Chromium", command: "npx", args: ["playwright", "install", "chromium"] });
  if (code !== 0) {
    console.error(
      `\n✗ fetching Chromium failed (exit ${code}). Install Chromium or Chrome and set PLAYWRIGHT_CHROMIUM_PATH to it, ` +
        "or run `npm test -- --no-e2e` to skip the browser tests.",
    );
    process.exit(code);
  }
  console.log(
    "Chromium fetched. If it then fails to start for missing system libraries (a bare Linux), " +
      "`sudo npx playwright install-deps chromium` installs them.",
  );
}

async function main(): Promise<void> {
  const started = Date.now();
  const database = serverUrl ? `PostgreSQL server (${new URL(serverUrl).host})` : "embedded PGlite";
  console.log(`\n▶ npm test on Node ${process.version}, database: ${database}\n`);

  stopGroupsOnSignals({ beforeExit: () => console.error("\n✗ stopped by a signal; every step's processes were stopped too") });
  if (!skipE2e) await ensureChromium();

  const vitest: Step = {
    name: "unit and integration tests",
    command: "npx",
    args: ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${vitestReport}`],
  };
  const build: Step = { name: "production build", command: "npx", args: ["next", "build"], env: { NEXT_DIST_DIR: distDir } };
  const stages: Step[][] = e2eOnly
    ? []
    : [
        [
          { name: "type-check", command: "npx", args: ["tsc", "--noEmit"] },
          { name: "lint", command: "npx", args: ["eslint", "--max-warnings=0", "."] },
        ],
        // The build the browser tests need is made while vitest runs.
        skipE2e ? [vitest] : [vitest, build],
      ];

  await rm(reportsDir, { recursive: true, force: true });
  const timings: string[] = [];
  for (const stage of stages) {
    const code = await runStage(stage, timings);
    if (code !== 0) {
      console.error(`\n✗ ${stage.map((step) => step.name).join(" or ")} failed (exit ${code}). Steps so far:\n  ${timings.join("\n  ")}`);
      await printTotals();
      process.exit(code);
    }
  }

  if (!skipE2e) {
    const stepStart = Date.now();
    console.log("\n━━ browser tests (Playwright, Chromium) ━━");
    // One app per Playwright worker, each on a database of its own (tests/e2e/support/app-env.ts names them).
    const slots = e2eSlots();
    for (let slot = 0; slot < slots; slot++) {
      const folder = slotPgliteDir(e2ePgliteDir, slot);
      await rm(folder, { recursive: true, force: true });
      await rm(`${folder}.lock`, { force: true });
    }
    const e2eDatabases = serverUrl ? await Promise.all(Array.from({ length: slots }, () => createE2eDatabase(serverUrl))) : [];
    const code = await run({
      name: "browser tests",
      command: "npx",
      args: ["playwright", "test", ...playwrightArgs],
      env: {
        NEXT_DIST_DIR: distDir,
        PLAYWRIGHT_JSON_OUTPUT_FILE: playwrightReport,
        E2E_WORKERS: String(slots),
        ...(e2eDatabases.length > 0 ? { E2E_DATABASE_URL: e2eDatabases.map((database) => database.url).join(",") } : {}),
      },
    });
    await Promise.all(e2eDatabases.map((database) => database.drop()));
    const seconds = ((Date.now() - stepStart) / 1000).toFixed(1);
    timings.push(`${code === 0 ? "✓" : "✗"} browser tests (${seconds}s)`);
    if (code !== 0) {
      console.error(`\n✗ browser tests failed (exit ${code}). Steps:\n  ${timings.join("\n  ")}`);
      await printTotals();
      process.exit(code);
    }
  }

  const total = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`\n✓ all steps passed in ${total}s (${database}, Node ${process.version}):\n  ${timings.join("\n  ")}`);
  await printTotals();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
