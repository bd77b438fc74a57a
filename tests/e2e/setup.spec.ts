import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { DEV_APP } from "../../lib/dev-app";
import { startEmulator, type RunningEmulator } from "../../emulator/src/index";
import { freePort } from "../../scripts/support/free-port";
import { envValues, parseEnvFile } from "../../scripts/support/env-file";
import { installThroughConsent } from "./support/install";
import { childEnv, run, until } from "./support/processes";
import { nextBin } from "../../scripts/support/next-bin";

/**
 * From nothing to an installed app with `npm run setup`, against an emulator of its own: the .env it writes passes
 * `npm run doctor`, keeps what was in the file, serves the production build, installs through the consent screen,
 * and verifies its webhook URL with the signing secret it was given.
 */

let emulator: RunningEmulator | undefined;
let folder = "";

test.afterAll(async () => {
  await emulator?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

test("npm run setup -- --yes writes a .env that the doctor passes and the app installs with", async ({ page }) => {
  test.setTimeout(600_000);
  const [appPort, emulatorPort] = [await freePort(), await freePort()];
  const appUrl = `http://localhost:${appPort}`;
  emulator = await startEmulator({ port: emulatorPort, appUrl, dataFile: null, autoTick: false, quiet: true, oauthRateLimits: false });
  // The console's "rotate signing secret": this app gets a webhook secret no other test knows.
  const rotated = (await (await fetch(`${emulator.url}/_emulator/webhooks/rotate-secret`, { method: "POST" })).json()) as { secret: string };

  folder = await mkdtemp(path.join(tmpdir(), "setup-spec-"));
  const envFile = path.join(folder, ".env");
  await writeFile(envFile, "# my own notes\nMY_FEATURE_FLAG=on\nAPP_URL=https://old.example.com\n");

  const flags = [
    "--yes",
    "--file", envFile,
    "--app-url", appUrl,
    "--auth-url", emulator.url,
    "--api-url", emulator.url,
    "--client-id", DEV_APP.clientId,
    "--client-secret", DEV_APP.clientSecret,
    "--webhook-secret", rotated.secret,
  ];
  const setup = run("npm", ["run", "setup", "--", ...flags], childEnv({}));
  expect(await setup.exited, setup.output()).toBe(0);
  expect(setup.output()).toContain(`Redirect URI:  ${appUrl}/oauth/callback`);
  expect(setup.output()).toContain(`Webhook URL:   ${appUrl}/api/webhooks`);
  expect(setup.output()).toContain("press Save and then Verify");
  expect(setup.output()).toContain("All checks passed.");
  // No secret is ever printed (npm's own echo of the command line, flags included, comes before).
  const printed = setup.output().slice(setup.output().indexOf("Setting up"));
  expect(printed).not.toContain(DEV_APP.clientSecret);
  expect(printed).not.toContain(rotated.secret);

  const text = await readFile(envFile, "utf8");
  expect(text).toMatch(/^# my own notes\nMY_FEATURE_FLAG=on\nAPP_URL=http:\/\/localhost:\d+\n/);
  const written = envValues(parseEnvFile(text));
  expect(written).toMatchObject({ APP_URL: appUrl, SVC_AUTH_URL: emulator.url, SVC_WEBHOOK_SECRET: rotated.secret, MY_FEATURE_FLAG: "on" });
  expect(Buffer.from(written.TOKEN_ENCRYPTION_KEY ?? "", "base64")).toHaveLength(32);
  expect((written.SESSION_SECRET ?? "").length).toBeGreaterThanOrEqual(32);
  expect((await stat(envFile)).mode & 0o077).toBe(0);

  // Run again: nothing asked, nothing replaced, the generated secrets kept.
  const again = run("npm", ["run", "setup", "--", "--yes", "--file", envFile, "--skip-doctor"], childEnv({}));
  expect(await again.exited, again.output()).toBe(0);
  expect(again.output()).toContain("nothing to change");
  expect(await readFile(envFile, "utf8")).toBe(text);

  const doctor = run("npm", ["run", "doctor", "--", "--file", envFile], childEnv({}));
  expect(await doctor.exited, doctor.output()).toBe(0);
  expect(doctor.output()).toContain("All checks passed.");

  // The production build, configured by nothing but that file.
  // next itself, not through npx: the SIGTERM at the end must reach the server, which npx would not pass on.
  const server = run(
    process.execPath,
    [nextBin(), "start", "-p", String(appPort)],
    childEnv({
      ...written,
      NODE_ENV: "production",
      PGLITE_DIR: path.join(folder, "pglite"),
      NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? ".next-test",
    }),
  );
  try {
    const up = await until(async () => (await fetch(`${appUrl}/api/health`).catch(() => null))?.status === 200, 300_000);
    expect(up, server.output()).toBe(true);

    await installThroughConsent(page, { storeIds: [101, 102], appUrl });
    await expect(page.getByRole("status")).toContainText("Connected to 2 stores: Amina Couture and Amina Maison.");

    // The console's Verify: a webhook.verify signed with the rotated secret, accepted by the app.
    const verify = (await (await fetch(`${emulator.url}/_emulator/webhooks/verify`, { method: "POST" })).json()) as { ok: boolean };
    expect(verify.ok, server.output()).toBe(true);
  } finally {
    server.child.kill("SIGTERM");
    await Promise.race([server.exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  }
});
