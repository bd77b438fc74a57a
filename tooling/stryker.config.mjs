// @ts-check
/**
 * Mutation testing of the security core (`npm run test:mutation`, tooling/scripts/mutation.ts). Stryker changes one
 * operator, literal or condition at a time in the files below and runs the vitest tests that cover that line; a
 * change no test notices ("survived") is a behaviour no test pins down.
 *
 * Each file must reach PER_FILE_MINIMUM in tooling/scripts/mutation.ts (Stryker's own `thresholds.break` is one global
 * score, which a well-tested file can carry a weak one past). tooling/scripts/mutation.ts runs Stryker once per group of
 * tooling/scripts/mutation-targets.ts (a file or a few with --mutate) and gives each run its own configuration through the
 * environment: MUTATION_TEST_FILES, the group's tests, selects tooling/vitest.mutation.config.ts, which includes only those;
 * MUTATION_REPORT_DIR, the group's folder, keeps its incremental cache and reports apart.
 */
import { fileURLToPath } from "node:url";

const reportDir = process.env.MUTATION_REPORT_DIR ?? "reports/mutation";
// Every run, narrowed or whole, through tooling/vitest.mutation.config.ts: it keeps each test file in a module registry of its own.
const configFile = "tooling/vitest.mutation.config.ts";

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
const config = {
  testRunner: "vitest",
  plugins: ["@stryker-mutator/vitest-runner", fileURLToPath(new URL("./stryker-log-ignorer.mjs", import.meta.url))],
  // Mutants inside log calls are left out (tooling/stryker-log-ignorer.mjs): the source carries no comment for them.
  ignorers: ["log-calls"],
  vitest: { configFile, related: true },
  // Each mutant runs only the tests that executed its line during the first (dry) run. A mutant of code run at
  // import ("static") runs every related test, switched on before the module loads. Stryker (9.6.1, 10.1.1) does that
  // too late when its --testFiles narrows the tests (stryker-js#6144), so a group's tests are narrowed in the vitest
  // configuration instead, and no run passes --testFiles.
  coverageAnalysis: "perTest",
  // Every file here is in exactly one group of tooling/scripts/mutation-targets.ts, with its tests (tooling/tests/mutation-targets.test.ts).
  mutate: [
    "lib/webhooks/signature.ts",
    "lib/webhooks/receive.ts",
    "lib/crypto/token-cipher.ts",
    "lib/oauth/pkce.ts",
    "lib/oauth/authorize-url.ts",
    "lib/oauth/callback.ts",
    "lib/oauth/complete-install.ts",
    "lib/oauth/token-response.ts",
    "lib/oauth/token-client.ts",
    "lib/tenancy.ts",
    "lib/session.ts",
    "lib/session-policy.ts",
    "lib/session-lifecycle.ts",
    // What the sessions issue added around sign-in: attempts kept side by side, the return path, cross-site refusal.
    "lib/oauth/install-attempts.ts",
    "lib/oauth/return-path.ts",
    "lib/http/cross-site.ts",
    "lib/sections.ts",
    // The second security round: install budgets and the client address, the webhook body's deadline, the failure reasons.
    "lib/oauth/install-budget.ts",
    "lib/http/client-address.ts",
    "lib/http/cidr.ts",
    "lib/http/peer-stamp.ts",
    "lib/webhooks/body.ts",
    "lib/oauth/failure-reasons.ts",
    // Returning merchants proven by their browser (the install budgets' reserve).
    "lib/oauth/returning-merchant.ts",
    // Which sections a store's grant opens (locked until the merchant approves a missing scope).
    "lib/installs/scopes.ts",
  ],
  // Two cores are shared with the app, the emulator and the embedded databases the tests open.
  concurrency: 1,
  // Tests open embedded databases and an emulator: give a slow machine room before a mutant counts as a timeout.
  timeoutMS: 60_000,
  timeoutFactor: 3,
  // The first run executes every related test file once with coverage; on a busy 2-core machine that is minutes.
  dryRunTimeoutMinutes: 40,
  // Re-runs only mutants whose code or covering tests changed since the last run. The cache lives under the
  // ignored reports/ folder: a fresh clone always runs everything.
  incremental: true,
  incrementalFile: `${reportDir}/stryker-incremental.json`,
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: `${reportDir}/index.html` },
  jsonReporter: { fileName: `${reportDir}/mutation.json` },
  clearTextReporter: { allowColor: false, logTests: false },
  thresholds: { high: 95, low: 90, break: null },
  // The sandbox copy needs the sources and tests only, not builds, databases or reports.
  ignorePatterns: [".next", ".next-*", ".data", "reports", "test-results", "playwright-report", "tooling/bench/results", "docs"],
  tempDirName: ".stryker-tmp",
  cleanTempDir: true,
};

export default config;
