import { expect, test } from "@playwright/test";
import { freePort } from "../../scripts/support/free-port";
import { childEnv, portAnswers as answers, run as runCommand, until } from "./support/processes";

/**
 * A killed test run leaves nothing behind. Runs `npm test -- --e2e-only` (scripts/test.ts itself, so the signal
 * reaches it and not an npx in front of it) on a fixture that only waits, with the suite's real servers (the
 * emulator and `next start` of the build), then kills the run with SIGTERM as CI or a terminal would.
 */

test("a test run killed mid-test stops its emulator and app", async () => {
  test.setTimeout(150_000);
  const [appPort, emulatorPort] = [await freePort(), await freePort()];

  const run = runCommand(process.execPath, ["--import", "tsx", "scripts/test.ts", "--e2e-only", "--", "--config", "tests/e2e/fixtures/hold.config.ts"], childEnv({
    E2E_APP_PORT: String(appPort),
    E2E_EMULATOR_PORT: String(emulatorPort),
    E2E_PGLITE_DIR: ".data/e2e-hold/pglite",
    TEST_REPORTS_DIR: ".data/e2e-hold/reports",
  }));
  const output = run.output;
  const exited = run.exited;

  try {
    const up = await until(async () => (await answers(appPort)) && (await answers(emulatorPort)), 100_000);
    expect(up, `both servers up; output so far:\n${output()}`).toBe(true);

    run.child.kill("SIGTERM");
    expect(await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve("still running"), 20_000))])).toBe(143);
    const down = await until(async () => !(await answers(appPort)) && !(await answers(emulatorPort)), 15_000);
    expect(down, `app on ${appPort} and emulator on ${emulatorPort} stopped; output:\n${output()}`).toBe(true);
  } finally {
    if (run.child.exitCode === null) run.child.kill("SIGKILL");
  }
});
