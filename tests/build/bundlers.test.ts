import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Browser } from "@playwright/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEV_APP } from "@/lib/dev-app";
import { freePort } from "@/scripts/support/free-port";
import { bodyStyled, linkedStyles, missingAppRules } from "@/tests/helpers/linked-styles";
import { run, until, type Watched } from "@/tests/e2e/support/processes";
import { nextBin } from "../../scripts/support/next-bin";

/**
 * Next builds with either of its bundlers: Turbopack (`next build`, the default) or webpack (`next build --webpack`).
 * Each production build, served by `next start`, must give pages the app's stylesheet: a stylesheet that reaches
 * pages by a path only one bundler knows (a custom loader, say) leaves the other's pages bare. Each bundler builds
 * into a folder of its own and serves two public pages to Chromium, under the content security policy.
 *
 * Two full builds take minutes on two cores, so this is not part of `npm test` (whose browser tests cover the
 * Turbopack build): `npm run test:bundlers` runs it. BUNDLERS=webpack runs one.
 */

const NEXT_BIN = nextBin();
const BUNDLERS = (process.env.BUNDLERS ?? "turbopack,webpack").split(",").map((name) => name.trim());
const PAGES = ["/", "/install/failed?reason=access_denied"];

let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: process.env.PLAYWRIGHT_CHROMIUM_PATH ?? systemChromium() });
});
afterAll(async () => {
  await browser?.close();
});

function systemChromium(): string | undefined {
  return process.platform === "linux" ? "/usr/bin/chromium" : undefined;
}

/** A production environment that calls nothing: the emulator's published app on loopback addresses nothing serves. */
function serverEnv(port: number, distDir: string, pgliteDir: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    NEXT_DIST_DIR: distDir,
    PORT: String(port),
    APP_URL: `http://127.0.0.1:${port}`,
    SVC_AUTH_URL: "http://127.0.0.1:9",
    SVC_API_URL: "http://127.0.0.1:9",
    SVC_CLIENT_ID: DEV_APP.clientId,
    SVC_CLIENT_SECRET: DEV_APP.clientSecret,
    SVC_WEBHOOK_SECRET: DEV_APP.webhookSecret,
    SESSION_SECRET: "bundlers-session-secret-at-least-32-characters",
    TOKEN_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    PGLITE_DIR: pgliteDir,
    LOG_LEVEL: "warn",
  };
}

async function stop(server: Watched | null): Promise<void> {
  if (!server || server.child.exitCode !== null) return;
  server.child.kill("SIGTERM");
  const done = await Promise.race([server.exited.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 10_000))]);
  if (!done) server.child.kill("SIGKILL");
}

describe.each(BUNDLERS)("a production build with %s", (bundler) => {
  const distDir = `.next-${bundler}`;
  let folder = "";
  let server: Watched | null = null;
  let appUrl = "";

  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), `bundlers-${bundler}-`));
    const build = run(process.execPath, [NEXT_BIN, "build", ...(bundler === "webpack" ? ["--webpack"] : [])], {
      ...process.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      NEXT_DIST_DIR: distDir,
    });
    expect(await build.exited, build.output()).toBe(0);
    // The build says which bundler made it: the flag reached Next.
    expect(build.output()).toContain(bundler === "webpack" ? "(webpack)" : "(Turbopack)");

    const port = await freePort();
    appUrl = `http://127.0.0.1:${port}`;
    server = run(process.execPath, [NEXT_BIN, "start", "-p", String(port), "-H", "127.0.0.1"], serverEnv(port, distDir, path.join(folder, "pglite")));
    const running = server;
    const up = await until(
      async () => running.child.exitCode !== null || (await fetch(`${appUrl}/api/health`).catch(() => null))?.status === 200,
      180_000,
    );
    expect(running.child.exitCode, running.output()).toBeNull();
    expect(up, server.output()).toBe(true);
  }, 1_200_000);

  afterAll(async () => {
    await stop(server);
    await rm(distDir, { recursive: true, force: true });
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it.each(PAGES)("serves %s with the app's stylesheet linked, loaded and applied", async (page) => {
    const context = await browser.newContext();
    try {
      const tab = await context.newPage();
      const violations: string[] = [];
      tab.on("console", (message) => {
        if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
      });
      const stylesheets: { url: string; status: number; type: string; body: string }[] = [];
      tab.on("response", async (response) => {
        if (response.request().resourceType() !== "stylesheet") return;
        stylesheets.push({ url: response.url(), status: response.status(), type: response.headers()["content-type"] ?? "", body: await response.text() });
      });
      const response = await tab.goto(`${appUrl}${page}`, { waitUntil: "load" });
      expect(response?.status()).toBe(200);
      expect(response?.headers()["content-security-policy"]).toMatch(/style-src 'self' 'nonce-/);

      const styles = await linkedStyles(tab);
      expect(styles.links.length, `${bundler} ${page}: ${JSON.stringify(styles.links)}`).toBeGreaterThan(0);
      for (const link of styles.links) expect(link).toMatchObject({ sameOrigin: true, loaded: true });
      expect(missingAppRules(styles)).toEqual([]);
      expect(styles.inlineStyles).toBe(0);
      expect(bodyStyled(styles), `body background ${styles.bodyBackground}`).toBe(true);
      expect(violations).toEqual([]);

      // On the wire: CSS from the app's own static files, the size of a real stylesheet, not an empty shell.
      expect(stylesheets.length).toBeGreaterThan(0);
      for (const sheet of stylesheets) {
        expect(sheet).toMatchObject({ status: 200, type: expect.stringMatching(/^text\/css/) });
        expect(new URL(sheet.url).pathname).toMatch(/^\/_next\/static\/.+\.css$/);
      }
      expect(stylesheets.reduce((total, sheet) => total + sheet.body.length, 0)).toBeGreaterThan(10_000);
    } finally {
      await context.close();
    }
  });
});
