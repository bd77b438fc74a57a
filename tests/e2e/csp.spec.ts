import { expect, test, type Page, type Response } from "@playwright/test";
import { bodyStyled, linkedStyles, missingAppRules } from "../helpers/linked-styles";
import { installThroughConsent } from "./support/install";
import { keepScreenshot } from "./support/review";
import { settle, trackRequests } from "./support/settle";

/**
 * Every page of the production build satisfies its own Content Security Policy: no violation event, no console
 * error, no uncaught error, while the policy forbids inline scripts without the per-request nonce.
 */

type Violation = { directive: string; blocked: string; source: string };

declare global {
  interface Window {
    __cspViolations?: Violation[];
  }
}

function watch(page: Page): { problems: string[] } {
  const problems: string[] = [];
  page.on("console", (message) => {
    // The browser asks for /favicon.ico on its own; a missing icon is not this test's subject.
    if (message.location().url.endsWith("/favicon.ico")) return;
    if (message.type() === "error" || /Content Security Policy/i.test(message.text())) {
      problems.push(`console ${message.type()}: ${message.text()} (${message.location().url})`);
    }
  });
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  return { problems };
}

async function violations(page: Page): Promise<Violation[]> {
  return page.evaluate(() => window.__cspViolations ?? []);
}

/** The document answer carries a nonce policy; the scripts Next put in the page carry that nonce. */
async function expectNoncePolicy(page: Page, response: Response | null): Promise<void> {
  expect(response, "document response").not.toBeNull();
  const headers = response!.headers();
  const policy = headers["content-security-policy"] ?? "";
  const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
  expect(nonce, `nonce in ${policy}`).toBeTruthy();
  expect(policy).toContain("frame-ancestors 'none'");
  expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(policy).not.toMatch(/script-src[^;]*'unsafe-eval'/);
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(headers["strict-transport-security"]).toContain("max-age=");
  expect(headers["x-request-id"]).toBeTruthy();
  // Inline scripts are what the policy would block; chunks loaded later by the nonced runtime need no nonce
  // under 'strict-dynamic'.
  const inline = await page.locator("script:not([src])").evaluateAll((elements) =>
    elements.map((element) => (element as HTMLScriptElement).nonce),
  );
  expect(inline.length).toBeGreaterThan(0);
  for (const scriptNonce of inline) expect(scriptNonce).toBe(nonce);
  expect(policy).toMatch(/style-src 'self'/);
  await expectAppStylesheet(page);
}

/**
 * The stylesheet is Next's link to a file of our own origin (style-src 'self'), loaded, holding the app's rules, and
 * applied: a blocked or missing one leaves the body's background transparent. No <style> element carries it.
 */
async function expectAppStylesheet(page: Page): Promise<void> {
  const styles = await linkedStyles(page);
  expect(styles.links.length, JSON.stringify(styles.links)).toBeGreaterThan(0);
  for (const link of styles.links) expect(link, "a linked stylesheet").toMatchObject({ sameOrigin: true, loaded: true });
  expect(missingAppRules(styles)).toEqual([]);
  expect(styles.inlineStyles).toBe(0);
  expect(bodyStyled(styles), `body background ${styles.bodyBackground}`).toBe(true);
}

async function visit(page: Page, path: string, screenshot: string): Promise<void> {
  const response = await page.goto(path);
  await settle(page);
  await expectNoncePolicy(page, response);
  expect(await violations(page), `CSP violations on ${path}`).toEqual([]);
  await keepScreenshot(page, screenshot);
}

test.beforeEach(async ({ page }) => {
  trackRequests(page);
  // Collected in the page itself, before any of its scripts run: the browser's own CSP report for each block.
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      (window.__cspViolations ??= []).push({
        directive: event.effectiveDirective,
        blocked: event.blockedURI,
        source: `${event.sourceFile}:${event.lineNumber}`,
      });
    });
  });
});

test("public pages satisfy the content security policy", async ({ page }) => {
  const { problems } = watch(page);
  await visit(page, "/", "csp-home");
  await visit(page, "/stores", "csp-stores-signed-out");
  await visit(page, "/install/failed?reason=access_denied", "csp-install-failed");
  expect(problems).toEqual([]);
});

test("store pages satisfy the content security policy after an install", async ({ page }) => {
  const { problems } = watch(page);
  await installThroughConsent(page, { storeIds: [101] });
  // The consent screen is the emulator's page, not ours: only count what happens from here on.
  problems.length = 0;
  await visit(page, "/stores", "csp-stores");
  await visit(page, "/stores/101?range=30d", "csp-overview");

  // The callback backfills the store's orders after answering: wait for the first one.
  const firstOrder = page.locator('a[href^="/stores/101/orders/"]').first();
  await expect(async () => {
    await page.goto("/stores/101/orders");
    await expect(firstOrder).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await visit(page, "/stores/101/orders", "csp-orders");

  const href = await firstOrder.getAttribute("href");
  expect(href).toMatch(/^\/stores\/101\/orders\/\d+$/);
  await visit(page, href!, "csp-order-detail");

  await visit(page, "/stores/101/categories", "csp-categories");
  // Client-side navigation loads more chunks under 'strict-dynamic': still no violation.
  await page.getByRole("link", { name: /orders/i }).first().click();
  await page.waitForURL(/\/stores\/101\/orders/);
  await settle(page);
  expect(await violations(page)).toEqual([]);
  // A client navigation keeps the one stylesheet: not linked a second time, still applied.
  await expectAppStylesheet(page);
  const { links } = await linkedStyles(page);
  expect(new Set(links.map((link) => link.href)).size).toBe(links.length);
  expect(problems).toEqual([]);
});

// A 404 renders per request too (the root layout calls connection()), so its scripts carry the nonce.
test("not-found pages satisfy the content security policy", async ({ page }) => {
  const { problems } = watch(page);
  for (const path of ["/does-not-exist", "/stores/999/orders"]) {
    const response = await page.goto(path);
    expect(response?.status()).toBe(404);
    await settle(page);
    expect(await violations(page), `CSP violations on ${path}`).toEqual([]);
  }
  expect(problems.filter((problem) => !problem.includes("404 (Not Found)"))).toEqual([]);
});
