import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { expect, test, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { startEmulator, type RunningEmulator } from "../../emulator/src/index";
import { ABSOLUTE_LIFETIME_MS, IDLE_TIMEOUT_MS, sessionIdOf } from "../../lib/session-policy";
import ar from "../../messages/ar.json" with { type: "json" };
import en from "../../messages/en.json" with { type: "json" };
import fr from "../../messages/fr.json" with { type: "json" };
import { freePort } from "../../scripts/support/free-port";
import { e2eAppEnv } from "./support/app-env";
import { installThroughConsent } from "./support/install";
import { seedPgliteDir } from "./support/pglite-template";
import { childEnv, run, until, type Watched } from "./support/processes";
import { nextBin } from "../../scripts/support/next-bin";
import { expectNoSeriousAxe, keepScreenshot, WCAG_AA } from "./support/review";

/**
 * The session limits as the browser that held a store meets them (issue 26): after 30 minutes without a request, and
 * 12 hours after the consent however busy, its store page says "your session has ended — sign in again", in its
 * language, with a Sign in that comes back to the page; never the bare 404.
 *
 * No clock is moved in the app: the app gets a server and an embedded database of its own (the suite's is held by the
 * suite's server), the merchants sign in, the server stops, the test ages their session rows in that database as the
 * clock would have, and the server starts again on it. The browsers keep their cookies throughout.
 */

const CATALOGUES = { ar, fr, en } as const;
type Locale = keyof typeof CATALOGUES;
const LOCALES: Locale[] = ["ar", "fr", "en"];
const MINUTE = 60_000;

let emulator: RunningEmulator | undefined;
let folder = "";

test.afterAll(async () => {
  await emulator?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

/** The message with {placeholders} as a pattern: the parts around them, in order. */
function pattern(message: string): RegExp {
  const parts = message.split(/\{\w+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(parts.join(".+"));
}

function startApp(appPort: number, emulatorUrl: string): Watched {
  const env = childEnv({
    ...e2eAppEnv(),
    PORT: String(appPort),
    APP_URL: `http://localhost:${appPort}`,
    SVC_AUTH_URL: emulatorUrl,
    SVC_API_URL: emulatorUrl,
    PGLITE_DIR: path.join(folder, "pglite"),
  });
  delete env.DATABASE_URL;
  // next itself, not through npx: the SIGTERM at the end must reach the server.
  return run(process.execPath, [nextBin(), "start", "-p", String(appPort)], env);
}

async function stopApp(server: Watched): Promise<void> {
  server.child.kill("SIGTERM");
  await Promise.race([server.exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGKILL");
  await server.exited;
}

/** The database id of the session this browser's cookie names, read as the app reads it. */
async function sessionIdIn(context: BrowserContext): Promise<string> {
  const cookie = (await context.cookies()).find((candidate) => candidate.name === "app_session");
  expect(cookie, "the session cookie").toBeDefined();
  return sessionIdOf(cookie!.value);
}

type Holder = { locale: Locale; limit: "idle" | "lifetime"; context: BrowserContext; page: Page; sessionId: string };

async function signedIn(browser: Browser, appUrl: string, locale: Locale, limit: Holder["limit"]): Promise<Holder> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, baseURL: appUrl });
  await context.addCookies([{ name: "NEXT_LOCALE", value: locale, url: appUrl }]);
  const page = await context.newPage();
  await installThroughConsent(page, { storeIds: [101, 102], appUrl });
  const open = await page.goto("/stores/101/orders?status=new");
  expect(open?.status()).toBe(200);
  return { locale, limit, context, page, sessionId: await sessionIdIn(context) };
}

test("after 30 idle minutes, and 12 hours after the consent, the browser that held the store is told its session ended, and Sign in comes back to the page", async ({ browser }) => {
  test.setTimeout(600_000);
  const [appPort, emulatorPort] = [await freePort(), await freePort()];
  const appUrl = `http://localhost:${appPort}`;
  emulator = await startEmulator({ port: emulatorPort, appUrl, dataFile: null, autoTick: false, quiet: true, oauthRateLimits: false });
  folder = await mkdtemp(path.join(tmpdir(), "session-end-spec-"));
  await seedPgliteDir(path.join(folder, "pglite"));

  let server = startApp(appPort, emulator.url);
  const holders: Holder[] = [];
  try {
    expect(await until(async () => (await fetch(`${appUrl}/api/health`).catch(() => null))?.status === 200, 300_000), server.output()).toBe(true);
    for (const locale of LOCALES) holders.push(await signedIn(browser, appUrl, locale, "idle"));
    const busy = await signedIn(browser, appUrl, "fr", "lifetime");
    holders.push(busy);

    // The cookie outlives the session's 12 hours, so there is still a cookie to explain the end to.
    const cookie = (await busy.context.cookies()).find((candidate) => candidate.name === "app_session")!;
    expect(cookie.expires * 1000).toBeGreaterThan(Date.now() + ABSOLUTE_LIFETIME_MS + 60 * MINUTE);

    // What the clock would have done: the idle sessions' last request 31 minutes ago; the busy one's consent (and its
    // stores' grants) 12 hours and a minute ago, its last request just now.
    await stopApp(server);
    const db = await PGlite.create(path.join(folder, "pglite"));
    try {
      for (const holder of holders) {
        const [age, idle] = holder.limit === "idle" ? [IDLE_TIMEOUT_MS + MINUTE, IDLE_TIMEOUT_MS + MINUTE] : [ABSOLUTE_LIFETIME_MS + MINUTE, 0];
        const aged = await db.query(
          `update sessions set created_at = created_at - $2 * interval '1 millisecond', last_seen_at = now() - $3 * interval '1 millisecond' where id = $1`,
          [holder.sessionId, age, idle],
        );
        expect(aged.affectedRows).toBe(1);
        await db.query(`update session_stores set granted_at = granted_at - $2 * interval '1 millisecond' where session_id = $1`, [holder.sessionId, age]);
      }
    } finally {
      await db.close();
    }
    server = startApp(appPort, emulator.url);
    expect(await until(async () => (await fetch(`${appUrl}/api/health`).catch(() => null))?.status === 200, 300_000), server.output()).toBe(true);

    for (const { locale, limit, page } of holders) {
      const m = CATALOGUES[locale];
      // The list of stores first, on the very request that finds the session over: its stores are named, not dropped.
      if (limit === "lifetime") {
        await page.goto("/stores");
        await expect(page.locator('[data-lost-store="101"]')).toContainText(m.LostAccess.listExpired);
        await expect(page.locator("[data-lost-store]")).toHaveCount(2);
      }
      const response = await page.goto("/stores/101/orders?status=new");
      expect(response?.status()).toBe(404);
      await expect(page.locator("[data-lost-access=expired]")).toBeVisible();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(m.LostAccess.sessionEndedTitle);
      await expect(page.locator("#lost-access-body")).toHaveText(pattern(m.LostAccess.expiredBody));
      await expect(page.locator("#lost-access-body")).toContainText("Amina Couture");
      const signIn = page.getByRole("link", { name: m.LostAccess.signIn });
      await expect(signIn).toHaveAttribute("href", `/install?return_to=${encodeURIComponent("/stores/101/orders?status=new")}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
      await expectNoSeriousAxe(page, { tags: WCAG_AA });
      await keepScreenshot(page, `session-ended-${limit}-${locale}-390`);

      // The list of stores names the ended session's stores too, with the way back.
      await page.goto("/stores");
      for (const [storeId, name] of [[101, "Amina Couture"], [102, "Amina Maison"]] as const) {
        const listed = page.locator(`[data-lost-store="${storeId}"]`);
        await expect(listed).toContainText(name);
        await expect(listed).toContainText(m.LostAccess.listExpired);
      }

      // Sign in: one consent, and the merchant is back on the page they had open.
      await page.goto("/stores/101/orders?status=new");
      await page.getByRole("link", { name: m.LostAccess.signIn }).click();
      await page.waitForURL((url) => url.origin === emulator?.url);
      await installThroughConsent(page, { storeIds: [101], start: page.url(), landing: /\/stores\/101\/orders\?status=new$/ });
      await expect(page.locator("[data-lost-access]")).toHaveCount(0);
      await expect(page.getByRole("heading", { level: 1 })).toContainText("Amina Couture");
    }
  } finally {
    for (const holder of holders) await holder.context.close();
    await stopApp(server);
  }
});
