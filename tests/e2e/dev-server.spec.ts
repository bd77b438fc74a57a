import { expect, test } from "@playwright/test";
import { freePort } from "../../scripts/support/free-port";
import { childEnv, portAnswers, run, until } from "./support/processes";

/**
 * `npm run dev` as a developer meets it: started on a fresh embedded database, it prints only what is true (no
 * health warning while the database opens), its pages satisfy the development content security policy with
 * Next's dev tools showing, and a SIGTERM stops the app and the emulator.
 */

test("npm run dev starts clean, its dev tools satisfy the development CSP, and it stops whole", async ({ page }) => {
  test.setTimeout(300_000);
  const [appPort, emulatorPort] = [await freePort(), await freePort()];
  const scratch = `.data/e2e-dev-${appPort}`;
  // scripts/dev.ts itself (not through npx) so the SIGTERM below reaches it.
  const dev = run(
    process.execPath,
    ["--import", "tsx", "scripts/dev.ts"],
    childEnv({
      NODE_ENV: "development",
      PORT: String(appPort),
      EMULATOR_PORT: String(emulatorPort),
      // A database that does not exist yet: the slowest start, when a health warning used to appear.
      PGLITE_DIR: `${scratch}/pglite`,
      EMULATOR_DATA_FILE: `${scratch}/emulator.json`,
      // next dev writes under <dist>/dev, beside the build the other tests run (tsconfig already lists it).
      NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? ".next-test",
    }),
  );
  try {
    const ready = await until(() => /Ready in [\d.]+ s\./.test(dev.output()) || dev.child.exitCode !== null, 240_000);
    expect(ready && dev.child.exitCode === null, `dev output:\n${dev.output()}`).toBe(true);
    expect(dev.output()).toContain(`Open the app:        http://localhost:${appPort}`);

    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (event) => {
        const record = window as unknown as { devViolations?: string[] };
        (record.devViolations ??= []).push(`${event.effectiveDirective} ${event.blockedURI}`);
      });
    });
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error" || /Content Security Policy/i.test(message.text())) problems.push(message.text());
    });
    const response = await page.goto(`http://localhost:${appPort}/`);
    expect(response?.status()).toBe(200);
    const policy = response?.headers()["content-security-policy"] ?? "";
    expect(policy).toContain("style-src 'self' 'unsafe-inline'");
    // Next's dev tools render into a shadow root styled by <style> elements the policy must let through.
    await expect(page.locator("nextjs-portal")).toBeAttached({ timeout: 30_000 });
    await page.waitForLoadState("networkidle");
    const styled = await page.evaluate(() => {
      const root = document.querySelector("nextjs-portal")?.shadowRoot;
      return root ? root.querySelectorAll("style").length : -1;
    });
    expect(styled).toBeGreaterThan(0);
    expect(await page.evaluate(() => (window as unknown as { devViolations?: string[] }).devViolations ?? [])).toEqual([]);
    expect(problems).toEqual([]);

    // Health asked while the database was opening said "starting"; nothing claimed a failure.
    expect(dev.output()).not.toMatch(/health check failed|WARN/);
  } finally {
    dev.child.kill("SIGTERM");
    await Promise.race([dev.exited, new Promise((resolve) => setTimeout(resolve, 20_000))]);
  }
  const stopped = await until(async () => !(await portAnswers(appPort)) && !(await portAnswers(emulatorPort)), 15_000);
  expect(stopped, `app ${appPort} and emulator ${emulatorPort} stopped`).toBe(true);
});
