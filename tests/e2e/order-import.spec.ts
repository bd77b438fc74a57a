import { expect, test } from "@playwright/test";
import { installThroughConsent } from "./support/install";
import { emulatorControl } from "./support/servers";
import { keepScreenshot } from "./support/review";

/** The store's pages tell the merchant about the order import that follows an install (lib/jobs/backfill.ts). */

test.beforeEach(async () => {
  await emulatorControl("POST", "/_emulator/reset");
});

test("after an install the store's page shows the order import, then how many orders it brought, in each locale", async ({ page, context }) => {
  await installThroughConsent(page, { storeIds: [101] });
  const notice = page.locator("[data-order-import]");
  // Running ("so far") or already done: either way the notice is there, and the page refreshes itself until done.
  await page.goto("/stores/101");
  await expect(notice).toBeVisible();
  await expect(notice).toHaveAttribute("data-order-import", "done", { timeout: 30_000 });
  await expect(notice).toHaveAttribute("role", "status");
  // Store 101 has 40 orders on the emulator; the browser asks for English.
  await expect(notice).toContainText("Orders imported: 40");
  for (const [locale, text] of [
    ["fr", "Commandes importées : 40"],
    // Digits as the app's Arabic formatting writes them, Latin or Arabic-Indic.
    ["ar", /تم استيراد الطلبات: (40|٤٠)/],
  ] as const) {
    await context.addCookies([{ name: "NEXT_LOCALE", value: locale, domain: new URL(page.url()).hostname, path: "/" }]);
    await page.goto("/stores/101/orders");
    await expect(notice).toContainText(text);
  }
  await keepScreenshot(page, "order-import-ar");
});
