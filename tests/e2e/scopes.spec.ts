import { expect, test, type Page } from "@playwright/test";
import ar from "../../messages/ar.json" with { type: "json" };
import en from "../../messages/en.json" with { type: "json" };
import fr from "../../messages/fr.json" with { type: "json" };
import { storeHref } from "../../lib/sections";
import { installThroughConsent } from "./support/install";
import { APP_URL, emulatorControl } from "./support/servers";
import { expectNoSeriousAxe, keepScreenshot, WCAG_AA } from "./support/review";

/**
 * A section that adds a scope meets stores installed before it (issue 53), on the emulator: the stores are
 * installed with the app's older scope list (the emulator's withheld scopes), so their grant lacks customers:read.
 * Customers opens locked (a 200 page saying what to approve), one banner names what the permission opens, and its
 * button runs the consent again: approved, Customers lists the store's customers and the banner is gone; declined,
 * the store keeps working as it was (its old token: Orders and Categories) and still asks.
 */

const APPROVING = 101;
const APPROVING_NAME = "Amina Couture";
const DECLINING = 102;

test.describe.configure({ timeout: 180_000 });

test.beforeEach(async () => {
  await emulatorControl("POST", "/_emulator/reset");
});

test.afterEach(async () => {
  await emulatorControl("POST", "/_emulator/app/withheld-scopes", { scopes: [] });
});

/** The stores installed through the real consent with customers:read left out, then the setting turned off again. */
async function installWithoutCustomers(page: Page, storeIds: number[]): Promise<void> {
  await emulatorControl("POST", "/_emulator/app/withheld-scopes", { scopes: ["customers:read"] });
  await installThroughConsent(page, { storeIds });
  await emulatorControl("POST", "/_emulator/app/withheld-scopes", { scopes: [] });
  const { installs } = await emulatorControl<{ installs: { storeId: number; scopes: string[]; active: boolean }[] }>("GET", "/_emulator/state");
  for (const storeId of storeIds) {
    const install = installs.find((candidate) => candidate.storeId === storeId && candidate.active);
    expect(install?.scopes, `store ${storeId}'s grant`).not.toContain("customers:read");
  }
}

function banner(page: Page) {
  return page.locator("[data-scope-gap]").and(page.locator("section"));
}

test("a store installed without customers:read opens Customers locked, approves through the banner, then lists its customers; a store that declines keeps working and still asks", async ({ page }) => {
  await installWithoutCustomers(page, [APPROVING, DECLINING]);

  // The store list marks both stores, and Customers on each card.
  for (const storeId of [APPROVING, DECLINING]) {
    const card = page.locator(`[data-store-id="${storeId}"]`);
    await expect(card.locator("[data-scope-gap]")).toHaveAttribute("data-scope-gap", "customers:read");
    await expect(card.locator("[data-scope-gap]")).toContainText("Customers");
    await expect(card.getByRole("link", { name: /^Customers needs approval/ })).toHaveAttribute("href", storeHref(storeId, "customers"));
    await expect(card.locator("[data-locked]")).toHaveCount(1);
  }

  // Customers, locked: a page that says what to approve, not an error; only Customers is marked in the navigation.
  const response = await page.goto(storeHref(APPROVING, "customers"));
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Customers");
  await expect(page.locator('[data-locked-section="customers"]')).toContainText("“See customers”");
  const nav = page.getByRole("navigation", { name: en.Shell.sections });
  await expect(nav.locator("[data-locked]")).toHaveCount(1);
  await expect(nav.getByRole("link", { name: /^Customers/ })).toContainText(en.ScopeGap.lockedMark);
  await expect(banner(page)).toHaveCount(1);
  await expect(banner(page)).toContainText("Approving “See customers” opens Customers");
  await expect(page.locator("[data-customer-id]")).toHaveCount(0);

  // The banner's button runs the consent again; the merchant ticks the store and approves.
  await page.locator("[data-scope-gap]").getByRole("link", { name: `${en.ScopeGap.approve} (${APPROVING_NAME})` }).click();
  await installThroughConsentScreen(page, APPROVING, "approve");
  await page.waitForURL(new RegExp(`${storeHref(APPROVING, "customers")}$`));

  const { customers } = await emulatorControl<{ customers: unknown[] }>("GET", `/_emulator/stores/${APPROVING}/customers`);
  expect(customers.length).toBeGreaterThan(0);
  await expect(page.locator('[data-list="customers"] > li')).toHaveCount(customers.length);
  await expect(page.locator("[data-scope-gap]")).toHaveCount(0);
  await expect(page.locator("[data-locked], [data-locked-section]")).toHaveCount(0);

  // The second store declines: nothing changes, its old token still answers, and it still asks.
  await page.goto(storeHref(DECLINING, "orders"));
  await page.locator("[data-scope-gap]").getByRole("link", { name: new RegExp(`^${en.ScopeGap.approve}`) }).click();
  await installThroughConsentScreen(page, DECLINING, "deny");

  const orders = await page.goto(storeHref(DECLINING, "orders"));
  expect(orders?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Orders");
  await expect(page.locator("[data-locked-section]")).toHaveCount(0);
  await expect(banner(page)).toHaveCount(1);
  const categories = await page.goto(storeHref(DECLINING, "categories"));
  expect(categories?.status()).toBe(200);
  // The page read the platform with the store's old token: its form to create a category is there, no refusal.
  await expect(page.getByRole("heading", { name: "New category" })).toBeVisible();
  await expect(page.locator("[data-locked-section]")).toHaveCount(0);
  await expect(banner(page)).toHaveCount(1);
  const locked = await page.goto(storeHref(DECLINING, "customers"));
  expect(locked?.status()).toBe(200);
  await expect(page.locator('[data-locked-section="customers"]')).toBeVisible();

  // The list still marks the store that declined, and no longer the one that approved.
  await page.goto("/stores");
  await expect(page.locator(`[data-store-id="${DECLINING}"] [data-scope-gap]`)).toHaveCount(1);
  await expect(page.locator(`[data-store-id="${APPROVING}"] [data-scope-gap]`)).toHaveCount(0);
});

/** On the emulator's consent screen (already signed in from the first install): tick the store, then answer. */
async function installThroughConsentScreen(page: Page, storeId: number, answer: "approve" | "deny"): Promise<void> {
  const approve = page.getByRole("button", { name: "Approve" });
  await expect(approve).toBeVisible();
  await page.locator(`input[name="store_id"][value="${storeId}"]`).check();
  if (answer === "deny") {
    await page.getByRole("button", { name: "Deny" }).click();
    await page.waitForURL(/\/install\/failed\?/);
    await expect(page.locator("[data-reason]")).toHaveAttribute("data-reason", "access_denied");
  } else {
    await approve.click();
  }
}

const LOCALES = {
  ar: { messages: ar, dir: "rtl", customers: "الزبائن", permission: "«الاطلاع على الزبائن»" },
  fr: { messages: fr, dir: "ltr", customers: "Clients", permission: "«\u00a0Voir les clients\u00a0»" },
} as const;

for (const [locale, expected] of Object.entries(LOCALES) as [keyof typeof LOCALES, (typeof LOCALES)[keyof typeof LOCALES]][]) {
  test(`in ${locale} at 320 px: the banner, the locked page and the marked store read in the language, fit, and pass axe`, async ({ page, context }) => {
    await context.addCookies([{ name: "NEXT_LOCALE", value: locale, url: APP_URL }]);
    await page.setViewportSize({ width: 320, height: 800 });
    await installWithoutCustomers(page, [APPROVING]);

    const pages = [
      { name: "stores", href: "/stores", check: page.locator(`[data-store-id="${APPROVING}"] [data-scope-gap]`) },
      { name: "customers", href: storeHref(APPROVING, "customers"), check: page.locator('[data-locked-section="customers"]') },
      { name: "orders", href: storeHref(APPROVING, "orders"), check: banner(page) },
    ];
    for (const { name, href, check } of pages) {
      const response = await page.goto(href);
      expect(response?.status(), name).toBe(200);
      await expect(page.locator("html")).toHaveAttribute("lang", locale);
      await expect(page.locator("html")).toHaveAttribute("dir", expected.dir);
      await expect(check, name).toContainText(expected.customers);
      if (name !== "stores") {
        await expect(banner(page)).toContainText(expected.permission);
        await expect(banner(page).getByRole("link", { name: new RegExp(`^${expected.messages.ScopeGap.approve}`) })).toBeVisible();
      }
      await expectNoSeriousAxe(page, { tags: WCAG_AA, label: `${name} (${locale}, 320 px)` });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${name} (${locale}) is wider than 320 px`).toBeLessThanOrEqual(0);
      await keepScreenshot(page, `scopes-${locale}-${name}-320`);
    }
  });
}
