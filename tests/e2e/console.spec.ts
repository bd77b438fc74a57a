import { expect, test, type Page } from "@playwright/test";
import ar from "../../messages/ar.json" with { type: "json" };
import en from "../../messages/en.json" with { type: "json" };
import fr from "../../messages/fr.json" with { type: "json" };
import { installThroughConsent } from "./support/install";
import { APP_URL, emulatorControl } from "./support/servers";
import { settle, trackRequests } from "./support/settle";

/**
 * A clean console (issue 26) on the production build: every merchant page (a failed install, the list of stores, a
 * store's overview, orders, an order, categories, the pages that explain lost access), reached by a full load and by
 * client-side navigation between them, in the three languages, logs no error and throws nothing.
 *
 * One line is expected and checked for, not an error of the app: a page that explains lost access answers 404, as a
 * store that does not exist does (so a request without the cookie learns nothing from the status), and Chromium logs
 * "Failed to load resource … 404" for any document answered so. Only that line, for exactly those pages, is allowed.
 */

const CATALOGUES = { ar, fr, en } as const;
type Locale = keyof typeof CATALOGUES;
const LOCALES: Locale[] = ["ar", "fr", "en"];
const STORE = 101;

/** Every error the app's own pages log or throw (the emulator's consent screen, another origin, is not under test). */
function collectErrors(page: Page): string[] {
  trackRequests(page);
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && (message.location().url === "" || message.location().url.startsWith(APP_URL))) {
      errors.push(`${message.text()} (${message.location().url || page.url()})`);
    }
  });
  page.on("pageerror", (error) => errors.push(`${error.message} (${page.url()})`));
  return errors;
}

/** Marks the document, so a navigation can be shown to have stayed client-side: the mark survives only that. */
async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => ((window as unknown as { __sameDocument?: boolean }).__sameDocument = true));
}

async function stillSameDocument(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true);
}

/** A click on an in-app link, then the page it leads to, reached without a full load. */
async function navigate(page: Page, link: ReturnType<Page["locator"]>, url: RegExp): Promise<void> {
  await markDocument(page);
  await link.click();
  await expect(page).toHaveURL(url);
  await settle(page);
  expect(await stillSameDocument(page), `client-side navigation to ${page.url()}`).toBe(true);
}

test.beforeEach(async () => {
  await emulatorControl("POST", "/_emulator/reset");
});

for (const locale of LOCALES) {
  const m = CATALOGUES[locale];

  test(`in ${locale}: no console error on any merchant page, loaded or reached client-side`, async ({ browser }) => {
    test.setTimeout(180_000);
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await context.addCookies([{ name: "NEXT_LOCALE", value: locale, url: APP_URL }]);
    const page = await context.newPage();
    const errors = collectErrors(page);

    // A refused consent: the install failed page.
    await installThroughConsent(page, { storeIds: [STORE], answer: "deny" });
    await settle(page);

    // The list of stores, then each section of a store, by the links a merchant follows.
    await installThroughConsent(page, { storeIds: [STORE, 102, 103] });
    await settle(page);
    await navigate(page, page.locator(`[data-store-id="${STORE}"] a[href="/stores/${STORE}"]`), new RegExp(`/stores/${STORE}$`));
    const nav = page.getByRole("navigation", { name: m.Shell.sections });
    await navigate(page, nav.getByRole("link", { name: m.Shell.orders, exact: true }), new RegExp(`/stores/${STORE}/orders$`));
    await expect(async () => {
      await page.reload();
      await expect(page.locator(".orders-table tbody tr").first()).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    await navigate(page, page.locator(".orders-table tbody th a").first(), new RegExp(`/stores/${STORE}/orders/\\d+$`));
    await navigate(page, page.locator(`main a[href="/stores/${STORE}/orders"]`).first(), new RegExp(`/stores/${STORE}/orders$`));
    await navigate(page, nav.getByRole("link", { name: m.Shell.categories, exact: true }), new RegExp(`/stores/${STORE}/categories$`));
    await expect(page.locator("article[data-category-id]").first()).toBeVisible();
    await navigate(page, nav.getByRole("link", { name: m.Shell.overview, exact: true }), new RegExp(`/stores/${STORE}$`));
    await navigate(page, page.locator('header a[href="/stores"]').first(), /\/stores$/);

    // The same pages by a full load.
    for (const path of ["/stores", `/stores/${STORE}`, `/stores/${STORE}/orders`, `/stores/${STORE}/categories`]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      await settle(page);
    }
    await page.goto(`/stores/${STORE}/orders`);
    await page.locator(".orders-table tbody th a").first().click();
    await expect(page).toHaveURL(new RegExp(`/stores/${STORE}/orders/\\d+$`));
    await page.reload();
    await settle(page);

    // Lost access: an uninstalled store, then a signed-out one, and the list naming them.
    await emulatorControl("POST", "/_emulator/stores/103/uninstall");
    await emulatorControl("POST", "/_emulator/tick");
    await expect(async () => {
      await page.goto("/stores/103/orders");
      await expect(page.locator("[data-lost-access=uninstalled]")).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    await settle(page);
    await page.goto(`/stores/${STORE}/orders`);
    await page.getByRole("button", { name: m.Shell.signOut, exact: true }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto(`/stores/${STORE}`);
    await expect(page.locator("[data-lost-access=signed_out]")).toBeVisible();
    await settle(page);
    await navigate(page, page.getByRole("link", { name: m.LostAccess.yourStores }), /\/stores$/);
    await expect(page.locator("[data-lost-stores]")).toBeVisible();

    const documentStatus = (url: string) => `Failed to load resource: the server responded with a status of 404 (Not Found) (${APP_URL}${url})`;
    const lostAccessPages = ["/stores/103/orders", `/stores/${STORE}`].map(documentStatus);
    expect(errors.filter((error) => !lostAccessPages.includes(error))).toEqual([]);
    await context.close();
  });
}
