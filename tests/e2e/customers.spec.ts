import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import ar from "../../messages/ar.json" with { type: "json" };
import fr from "../../messages/fr.json" with { type: "json" };
import { storeHref } from "../../lib/sections";
import { installThroughConsent } from "./support/install";
import { APP_URL, emulatorControl } from "./support/servers";

/**
 * Customers (written by npm run new:section): the page opens in Arabic and French on a phone, in the language's
 * direction, with its title, no sideways scroll and no serious axe finding. tests/e2e/sections.spec.ts checks its
 * link, title and current mark in the navigation; this spec grows with the page's own behaviour.
 */

const STORE = 101;
const LOCALES = { ar: { dir: "rtl", messages: ar }, fr: { dir: "ltr", messages: fr } } as const;

test.describe.configure({ timeout: 120_000 });

test.beforeEach(async () => {
  await emulatorControl("POST", "/_emulator/reset");
});

for (const [locale, { dir, messages }] of Object.entries(LOCALES)) {
  test(`customers opens in ${locale} at 390 px, with its title, no sideways scroll and axe at 0 serious`, async ({ page, context }) => {
    await installThroughConsent(page, { storeIds: [STORE] });
    await context.addCookies([{ name: "NEXT_LOCALE", value: locale, url: APP_URL }]);
    await page.setViewportSize({ width: 390, height: 844 });
    const response = await page.goto(storeHref(STORE, "customers"));
    expect(response?.status()).toBe(200);
    await expect(page.locator("html")).toHaveAttribute("lang", locale);
    await expect(page.locator("html")).toHaveAttribute("dir", dir);
    await expect(page.getByRole("heading", { level: 1 })).toContainText(messages.Customers.title);
    await expect(page.getByRole("heading", { level: 2 })).toHaveText(messages.Customers.emptyTitle);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
    expect(serious.map((violation) => violation.id)).toEqual([]);
  });
}
