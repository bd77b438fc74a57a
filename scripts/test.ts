/**
 * `npm test`: the whole suite, each step printed with its time. Type-check beside lint; then unit and integration
 * tests (vitest, on the embedded database or on TEST_DATABASE_URL) beside the production build, followed as soon as
 * it is made by the browser tests (Playwright in Chromium against the build, two workers, each with an emulator and
 * an app of its own). One step prints live at a time; the others' output is held (scripts/support/lanes.ts).
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
import { rm } from "node:fs/promises";
import { openDatabase } from "../db/client";
import { createScratchDatabase, type ScratchDatabase } from "../db/scratch";
import { describeChromium, findChromium } from "./support/chromium";
import { readReports } from "./support/test-reports";
import { runLanes, Screen, type Step, type StepResult } from "./support/lanes";
import { spawnGroup, stopGroupsOnSignals } from "./support/process-group";
import { migrateDatabase } from "../lib/database/migrate";
import { PGLITE_TEMPLATE_VAR, seedPgliteDir } from "../tests/e2e/support/pglite-template";
import { e2eSlots, slotPgliteDir } from "../tests/e2e/support/slots";


const serverUrl = process.env.TEST_DATABASE_URL;
const separator = process.argv.indexOf("--");
const ownArgs = separator === -1 ? process.argv.slice(2) : process.argv.slice(2, separator);
const playwrightArgs = separator === -1 ? [] : process.argv.slice(separator + 1);
const skipE2e = ownArgs.includes("--no-e2e");
const e2eOnly = ownArgs.includes("--e2e-only");
const distDir = process.env.NEXT_DIST_DIR ?? ".next-test";
const reportsDir = process.env.TEST_REPORTS_DIR ?? ".data/test-reports";
const e2ePgliteDir = process.env.E2E_PGLITE_DIR ?? ".data/e2e/pglite";
const e2ePgliteTemplate = `${e2ePgliteDir}-template`;
const vitestReport = `${reportsDir}/vitest.json`;
const playwrightReport = `${reportsDir}/playwright.json`;

/**
 * The closing lines CI reads: the failed tests by name (a long run's own output scrolls them out of a log's tail),
 * then plain "N passed, N failed" over vitest and Playwright together.
 */
async function printTotals(): Promise<void> {
  const counts = await readReports(vitestReport, playwrightReport);
  if (counts.failures.length > 0) console.log(`\nfailed:\n  ${counts.failures.join("\n  ")}`);
  console.log(`\ntests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
}

function run(step: Step): Promise<number> {
  // stdin stays with us: a step in its own process group must not read the terminal.
  return spawnGroup(step.command, step.args, { stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, ...step.env } }).exited;
}

async function createE2eDatabase(serverUrl: string): Promise<ScratchDatabase> {
  const scratch = await createScratchDatabase(serverUrl, "starter_e2e");
  const handle = await openDatabase({ url: scratch.url, maxConnections: 1 });
  await migrateDatabase(handle);
  await handle.close();
  return scratch;
}

/** An embedded database folder and the lock file db/embedded-lock.ts keeps beside it, left by an earlier run. */
async function removePgliteFolder(folder: string): Promise<void> {
  await rm(folder, { recursive: true, force: true });
  await rm(`${folder}.lock`, { force: true });
}

/**
 * An embedded database migrated as a release is, in a folder the browser tests' apps start on copies of
 * (tests/e2e/support/pglite-template.ts): one initdb per run instead of one per app. Made in this process while the
 * first steps run, and awaited only by the browser tests.
 */
async function makePgliteTemplate(folder: string): Promise<string> {
  await removePgliteFolder(folder);
  const handle = await openDatabase({ embedded: folder });
  try {
    await migrateDatabase(handle);
  } finally {
    await handle.close();
  }
  return folder;
}

/**
 * One app per Playwright worker, each on a database of its own (tests/e2e/support/app-env.ts names them): copies of
 * the migrated embedded template, or fresh databases on the PostgreSQL server, dropped after the run. The template
 * is named to the specs too, for the apps they start on embedded databases of their own.
 */
async function prepareBrowserDatabases(template: Promise<string>): Promise<{ env: Record<string, string>; cleanup: () => Promise<void> }> {
  const slots = e2eSlots();
  const templateFolder = await template;
  for (let slot = 0; slot < slots; slot++) {
    const folder = slotPgliteDir(e2ePgliteDir, slot);
    await removePgliteFolder(folder);
    if (!serverUrl) await seedPgliteDir(folder, { [PGLITE_TEMPLATE_VAR]: templateFolder });
  }
  const databases = serverUrl ? await Promise.all(Array.from({ length: slots }, () => createE2eDatabase(serverUrl))) : [];
  return {
    env: {
      E2E_WORKERS: String(slots),
      [PGLITE_TEMPLATE_VAR]: templateFolder,
      ...(databases.length > 0 ? { E2E_DATABASE_URL: databases.map((database) => database.url).join(",") } : {}),
    },
    cleanup: async () => {
      await Promise.all(databases.map((database) => database.drop()));
    },
  };
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
  // Started now, beside the first steps; a failure is the browser tests' to report, when they await it.
  const pgliteTemplate = skipE2e ? Promise.resolve(e2ePgliteTemplate) : makePgliteTemplate(e2ePgliteTemplate);
  pgliteTemplate.catch(() => undefined);

  const vitest: Step = {
    name: "unit and integration tests",
    command: "npx",
    args: ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${vitestReport}`],
  };
  // The type-check step has checked every type the build would, the routes' included (next typegen writes them
  // first), and the build starts only once it has passed: its own TypeScript pass would check them a second time
  // (about 20 s of a fresh clone's 56 s build, on the way to the browser tests). next.config.ts reads the flag.
  const build: Step = { name: "production build", command: "npx", args: ["next", "build"], env: { NEXT_DIST_DIR: distDir, SKIP_BUILD_TYPECHECK: "1" } };
  const browser: Step = {
    name: "browser tests",
    command: "npx",
    args: ["playwright", "test", ...playwrightArgs],
    env: { NEXT_DIST_DIR: distDir, PLAYWRIGHT_JSON_OUTPUT_FILE: playwrightReport },
    prepare: () => prepareBrowserDatabases(pgliteTemplate),
  };
  // Each stage's lanes run at once. The build, then the browser tests, run while vitest does: vitest spends much of
  // its time waiting on timers and child processes, and the browser tests are most of the run.
  const stages: Step[][][] = e2eOnly
    ? [[[browser]]]
    : [
        [
          [
            // The routes' types (page and layout props, typed links) into the build folder, where tsconfig.json
            // includes them: without them a fresh clone's tsc would not check what only the build's pass did.
            { name: "route types", command: "npx", args: ["next", "typegen"], env: { NEXT_DIST_DIR: distDir } },
            { name: "type-check", command: "npx", args: ["tsc", "--noEmit"] },
          ],
          [{ name: "lint", command: "npx", args: ["eslint", "--max-warnings=0", "."] }],
        ],
        skipE2e ? [[vitest]] : [[vitest], [build, browser]],
      ];

  await rm(reportsDir, { recursive: true, force: true });
  const screen = new Screen(process.stdout);
  const results: StepResult[] = [];
  const summary = () => results.map(({ name, code, seconds }) => `${code === 0 ? "✓" : "✗"} ${name} (${seconds.toFixed(1)}s)`).join("\n  ");
  for (const stage of stages) {
    results.push(...(await runLanes(stage, screen)));
    const failed = results.filter((result) => result.code !== 0);
    if (failed.length > 0) {
      // Run beside another step, a failed step's own block can be a thousand lines up: its end is repeated here.
      for (const { name, lastLines } of failed) {
        if (lastLines) console.error(`\n━━ ${name}: the end of its output ━━\n${lastLines}`);
      }
      console.error(`\n✗ ${failed.map((result) => result.name).join(" and ")} failed (exit ${failed[0]!.code}). Steps so far:\n  ${summary()}`);
      await printTotals();
      process.exit(failed[0]!.code);
    }
  }

  const total = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`\n✓ all steps passed in ${total}s (${database}, Node ${process.version}):\n  ${summary()}`);
  await printTotals();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
