import { expect, test, type Browser, type BrowserContext, type Page } from "@playwright/test";
import ar from "../../messages/ar.json" with { type: "json" };
import en from "../../messages/en.json" with { type: "json" };
import fr from "../../messages/fr.json" with { type: "json" };
import { installThroughConsent } from "./support/install";
import { APP_URL, emulatorControl } from "./support/servers";
import { expectNoSeriousAxe, keepScreenshot, WCAG_AA } from "./support/review";

/**
 * Lost access explained (issue 26): the browser that held a store learns, in its language and with the store's
 * name, what happened to it and the one fix; a browser that never held it meets the same 404 as a store that does
 * not exist. The session limits (30 idle minutes, 12 hours) are in session-end.spec.ts.
 */

const CATALOGUES = { ar, fr, en } as const;
type Locale = keyof typeof CATALOGUES;
const LOCALES: Locale[] = ["ar", "fr", "en"];

async function phoneIn(browser: Browser, locale: Locale): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await context.addCookies([{ name: "NEXT_LOCALE", value: locale, url: APP_URL }]);
  return { context, page: await context.newPage() };
}

/** The message with {placeholders} as a pattern: the parts around them, in order. */
function pattern(message: string): RegExp {
  const parts = message.split(/\{\w+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(parts.join(".+"));
}

/**
 * While a store's order import runs, its pages render themselves again every few seconds, and one rendered after an
 * uninstall rightly shows the change. A tab meant to stay as it was loaded, stale, waits the import out first.
 */
async function untilImportEnds(page: Page): Promise<void> {
  await expect(page.locator('[data-order-import="running"]')).toHaveCount(0, { timeout: 30_000 });
}

/** The merchant uninstalls the app from a store; a second tab learns when that has reached the app, the others wait. */
async function uninstallMeanwhile(context: BrowserContext, storeId: number): Promise<void> {
  await emulatorControl("POST", `/_emulator/stores/${storeId}/uninstall`);
  await emulatorControl("POST", "/_emulator/tick");
  const probe = await context.newPage();
  await expect(async () => {
    await probe.goto(`/stores/${storeId}/orders`);
    await expect(probe.locator("[data-lost-access=uninstalled]")).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await probe.close();
}

test.beforeEach(async () => {
  await emulatorControl("POST", "/_emulator/reset");
});

for (const locale of LOCALES) {
  const m = CATALOGUES[locale];

  test(`in ${locale}: an uninstall, a sign-out and a sign-out elsewhere are explained; a stranger gets the 404`, async ({ browser }) => {
    test.setTimeout(120_000);
    const { context, page } = await phoneIn(browser, locale);
    await installThroughConsent(page, { storeIds: [101, 102, 103] });

    // Uninstalled: what happened, when, and Reinstall, on the very page the merchant had open.
    await emulatorControl("POST", "/_emulator/stores/103/uninstall");
    await emulatorControl("POST", "/_emulator/tick");
    await expect(async () => {
      await page.goto("/stores/103/orders");
      await expect(page.locator("[data-lost-access=uninstalled]")).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(pattern(m.LostAccess.uninstalledTitle));
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Amina Kids");
    await expect(page.locator("#lost-access-body")).toHaveText(pattern(m.LostAccess.uninstalledBody));
    await expect(page.locator("#lost-access-body")).toContainText(/\d{2}:\d{2}/);
    const reinstall = page.getByRole("link", { name: m.LostAccess.reinstall });
    await expect(reinstall).toHaveAttribute("href", `/install?return_to=${encodeURIComponent("/stores/103/orders")}`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
    await expectNoSeriousAxe(page, { tags: WCAG_AA });
    await keepScreenshot(page, `uninstalled-${locale}-390`);

    // Another device signs out of store 101 everywhere: this browser is told so, with the store's name.
    const other = await phoneIn(browser, locale);
    await installThroughConsent(other.page, { storeIds: [101] });
    await other.page.goto("/stores/101");
    await other.page.locator('form[action="/signout/everywhere"] button').click();
    // Asked first, with the store named.
    await expect(other.page.getByRole("heading", { level: 1 })).toHaveText(pattern(m.Shell.signOutEverywhereConfirmTitle));
    await expect(other.page.getByRole("heading", { level: 1 })).toContainText("Amina Couture");
    await expectNoSeriousAxe(other.page, { tags: WCAG_AA });
    await keepScreenshot(other.page, `sign-out-everywhere-confirm-${locale}-390`);
    await other.page.getByRole("button", { name: m.Shell.signOutEverywhereConfirm }).click();
    await expect(other.page).toHaveURL(/signed_out=everywhere/);
    await page.goto("/stores/101/orders?status=new");
    await expect(page.locator("[data-lost-access=signed_out_everywhere]")).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(m.LostAccess.sessionEndedTitle);
    await expect(page.locator("#lost-access-body")).toHaveText(pattern(m.LostAccess.signedOutEverywhereBody));
    await expect(page.locator("#lost-access-body")).toContainText("Amina Couture");
    await expect(page.getByRole("link", { name: m.LostAccess.signIn })).toHaveAttribute(
      "href",
      `/install?return_to=${encodeURIComponent("/stores/101/orders?status=new")}`,
    );
    await expectNoSeriousAxe(page, { tags: WCAG_AA });
    await keepScreenshot(page, `signed-out-everywhere-${locale}-390`);

    // The other device signed itself out that way: it is told the same on the store it held.
    await other.page.goto("/stores/101/categories");
    await expect(other.page.locator("[data-lost-access=signed_out_everywhere]")).toBeVisible();
    await other.context.close();

    // This browser signs out (again in, then out): the store page says the session ended, and Sign in comes back.
    await installThroughConsent(page, { storeIds: [102] });
    await page.goto("/stores/102/orders");
    await page.getByRole("button", { name: m.Shell.signOut, exact: true }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto("/stores/102/orders");
    await expect(page.locator("[data-lost-access=signed_out]")).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(m.LostAccess.sessionEndedTitle);
    await expect(page.locator("#lost-access-body")).toContainText("Amina Maison");
    await keepScreenshot(page, `signed-out-${locale}-390`);
    // The list of stores names it too, with what happened and the way back, instead of dropping it silently.
    await page.goto("/stores");
    const listed = page.locator('[data-lost-store="102"]');
    await expect(listed).toContainText("Amina Maison");
    await expect(listed.getByRole("link", { name: m.LostAccess.signIn })).toHaveAttribute("href", `/install?${new URLSearchParams({ return_to: "/stores/102" })}`);
    await expectNoSeriousAxe(page, { tags: WCAG_AA });
    await keepScreenshot(page, `stores-lost-${locale}-390`);
    await page.goto("/stores/102/orders");
    await page.getByRole("link", { name: m.LostAccess.signIn }).click();
    await installThroughConsent(page, { storeIds: [102], start: page.url(), landing: /\/stores\/102\/orders$/ });
    await expect(page.locator(".orders-table, [data-orders-empty]").first()).toBeVisible();

    // A browser that never held these stores: the same 404 as a store that does not exist, naming nothing.
    const stranger = await phoneIn(browser, locale);
    for (const path of ["/stores/103/orders", "/stores/101/orders", "/stores/999999/orders"]) {
      const response = await stranger.page.goto(path);
      expect(response?.status()).toBe(404);
      await expect(stranger.page.getByRole("heading", { level: 1 })).toHaveText(m.NotFound.title);
      await expect(stranger.page.locator("body")).not.toContainText("Amina");
    }
    await stranger.context.close();
    await context.close();
  });
}

test("an action on a store uninstalled meanwhile says it was not done, and why", async ({ browser }) => {
  for (const locale of LOCALES) {
    await emulatorControl("POST", "/_emulator/reset");
    const m = CATALOGUES[locale];
    const { context, page } = await phoneIn(browser, locale);
    await installThroughConsent(page, { storeIds: [101, 103] });
    await page.goto("/stores/103/categories");
    await untilImportEnds(page);
    const form = page.locator("form").filter({ has: page.locator('input[name="name"]') }).first();
    await expect(form).toBeVisible();
    await uninstallMeanwhile(context, 103);

    await form.locator('input[name="name"]').fill("Nouveautés");
    await form.locator('button[type="submit"]').click();
    const alert = form.getByRole("alert");
    await expect(alert).toContainText(pattern(m.LostAccess.actionNotDoneClosed));
    await expect(alert).toContainText("Amina Kids");
    await expect(alert.getByRole("link")).toHaveAttribute("href", "/install");
    await keepScreenshot(page, `action-on-uninstalled-${locale}-390`);
    await context.close();
  }
});

test("a store uninstalled meanwhile, reached without a page load, is explained as on a page load", async ({ browser }) => {
  const m = CATALOGUES.ar;
  const { context, page } = await phoneIn(browser, "ar");
  await installThroughConsent(page, { storeIds: [101, 102] });
  // Three tabs of one browser, each loaded before the uninstall, each still linking to the store.
  await page.goto("/stores/101/categories");
  await untilImportEnds(page);
  const list = await context.newPage();
  await list.goto("/stores");
  // This tab has just loaded /stores/102/orders afresh for a stale answer: were that answer's path and the address
  // bar to disagree again (a basePath), it must not load the page again, and again.
  const guarded = await context.newPage();
  await guarded.goto("/stores");
  await guarded.evaluate(() => sessionStorage.setItem("app:reloaded-for", "/stores/102/orders"));
  await uninstallMeanwhile(context, 102);

  /** The page loads afresh, and the server answers 404 with the store's explanation and a way back to that page. */
  const explainedAfresh = async (tab: Page, navigate: () => Promise<void>) => {
    const document = tab.waitForResponse((response) => response.request().resourceType() === "document");
    await navigate();
    expect((await document).status()).toBe(404);
    await expect(tab).toHaveURL(/\/stores\/102\/orders$/);
    await expect(tab.locator("[data-lost-access=uninstalled]")).toBeVisible();
    await expect(tab.getByRole("heading", { level: 1 })).toHaveText(pattern(m.LostAccess.uninstalledTitle));
    await expect(tab.getByRole("heading", { level: 1 })).toContainText("Amina Maison");
    await expect(tab.getByRole("link", { name: m.LostAccess.reinstall })).toHaveAttribute(
      "href",
      `/install?return_to=${encodeURIComponent("/stores/102/orders")}`,
    );
    // The answer written for its own path clears the mark, so a later stale answer on this path loads afresh again.
    expect(await tab.evaluate(() => sessionStorage.getItem("app:reloaded-for"))).toBeNull();
  };
  // From a store page, through the store switcher: its root 404 holds no answer (the guard let its store through).
  await explainedAfresh(page, async () => {
    await page.locator("details summary").first().click();
    await page.getByRole("link", { name: "Amina Maison" }).click();
  });
  // From the list of stores: its root 404 holds the plain answer written for /stores, which would offer to sign in
  // and come back there.
  await explainedAfresh(list, () => list.locator('a[href="/stores/102/orders"]').first().click());

  // The guarded tab shows the answer it has (visible, so the check before paint let it stand), on the same document.
  await guarded.evaluate(() => Object.assign(window, { sameDocument: true }));
  await guarded.locator('a[href="/stores/102/orders"]').first().click();
  await expect(guarded).toHaveURL(/\/stores\/102\/orders$/);
  await expect(guarded.getByRole("heading", { level: 1 })).toHaveText(m.NotFound.title);
  expect(await guarded.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(true);
  await context.close();
});
