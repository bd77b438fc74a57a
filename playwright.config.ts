import { defineConfig, devices } from "@playwright/test";
import { chromiumExecutable, findChromium } from "./scripts/support/chromium";
import { e2eAppEnv } from "./tests/e2e/support/app-env";
import { APP_URL, appPort, appUrl, emulatorPort, emulatorUrl, SLOTS } from "./tests/e2e/support/servers";

/**
 * Chromium: PLAYWRIGHT_CHROMIUM_PATH when set, else Playwright's own build when installed, else a system Chromium or
 * Chrome, else Playwright's own, which `npm test` fetches first (scripts/support/chromium.ts).
 */
const executablePath = chromiumExecutable(findChromium());

/**
 * Each server runs under scripts/support/tied.ts: it lives only as long as this runner holds its stdin, so a run
 * killed in any way (even SIGKILL) takes its emulator and app down with it.
 */
const TIED = "npx tsx scripts/support/tied.ts";

export default defineConfig({
  testDir: "tests/e2e",
  // Runs driven by other specs (tests/e2e/fixtures) are not tests of their own.
  testIgnore: "**/fixtures/**",
  outputDir: "test-results",
  // One app, emulator and database per worker (a slot, tests/e2e/support/servers.ts): a file's tests run in order on
  // one worker, and files are shared out between the workers. Two on two cores: much of a test is waiting on a page.
  workers: SLOTS,
  fullyParallel: false,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // The JSON report (path from PLAYWRIGHT_JSON_OUTPUT_FILE) feeds the pass/fail totals `npm test` prints.
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_FILE
    ? [["list"], ["json"]]
    : process.env.CI
      ? [["list"]]
      : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL: APP_URL,
    // Off: recording a trace of every test (to keep the failing ones') cost a fifth of the browser tests' time on two
    // cores (101 s against 81 s for the i18n and overview specs). A failure keeps its screenshot; to get its trace,
    // run the spec again with `npm test -- --e2e-only -- <spec> --trace=retain-on-failure`.
    trace: "off",
    screenshot: "only-on-failure",
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: {
          executablePath,
          // The machine's network is closed: keep Chromium from phoning home at every start.
          args: ["--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
        },
      },
    },
  ],
  webServer: Array.from({ length: SLOTS }, (_, slot) => [
    {
      // OAuth rate limits off: the suite installs through the consent screen more often than 10 times in 10 minutes.
      command: `${TIED} tsx emulator/src/cli.ts start --port ${emulatorPort(slot)} --app-url ${appUrl(slot)} --memory --no-auto-tick --no-oauth-limits`,
      url: `${emulatorUrl(slot)}/_emulator/clock`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: "pipe" as const,
      stderr: "pipe" as const,
    },
    {
      command: `${TIED} next start -p ${appPort(slot)}`,
      url: `${appUrl(slot)}/api/health`,
      env: e2eAppEnv(slot),
      reuseExistingServer: false,
      // A fresh embedded database takes seconds to create on an idle machine, minutes on a crowded one.
      timeout: 180_000,
      stdout: "pipe" as const,
      stderr: "pipe" as const,
    },
  ]).flat(),
});
