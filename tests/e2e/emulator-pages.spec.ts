import { expect, test, type Page } from "@playwright/test";
import { EMULATOR_URL, emulatorControl } from "./support/servers";

/** The emulator's merchant dashboard and developer console on a phone: 390 px wide, nothing to scroll sideways. */

test.use({ viewport: { width: 390, height: 844 } });

test.beforeAll(async () => {
  await emulatorControl("POST", "/_emulator/reset");
  // Full tables: an install, orders with long names, and deliveries with their attempts.
  await emulatorControl("POST", "/_emulator/installs", { storeId: 101 });
  for (const name of ["Fatima-Zohra Benabdelkader-Boumediene", "Mohamed El Amine Ould Abdelkader"]) {
    await emulatorControl("POST", "/_emulator/orders", { storeId: 101, customer_name: name });
  }
  await emulatorControl("POST", "/_emulator/tick");
});

test.afterAll(async () => {
  await emulatorControl("POST", "/_emulator/reset");
});

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => ({
    document: document.documentElement.scrollWidth,
    body: document.body.scrollWidth,
    viewport: window.innerWidth,
  }));
  expect(widths.viewport).toBe(390);
  expect(widths.document, `page ${page.url()} is ${widths.document} px wide`).toBeLessThanOrEqual(390);
  expect(widths.body).toBeLessThanOrEqual(390);
}

test("the developer console fits a 390 px screen", async ({ page }) => {
  await page.goto(`${EMULATOR_URL}/console`);
  await expect(page.getByRole("heading", { name: "Delivery log" })).toBeVisible();
  await expect(page.locator('td[data-label="Event"] code', { hasText: "order.created" }).first()).toBeVisible();
  await expectNoSidewaysScroll(page);
  // The webhook URL field stays usable: as wide as the screen allows, not cut off.
  const field = await page.getByLabel("Webhook URL").boundingBox();
  expect(field!.x + field!.width).toBeLessThanOrEqual(390);
});

test("the merchant dashboard fits a 390 px screen", async ({ page }) => {
  await page.goto(`${EMULATOR_URL}/login?next=/dashboard`);
  await page.getByRole("button", { name: "Sign in as Amina Haddad" }).click();
  await expect(page.getByText("Fatima-Zohra Benabdelkader-Boumediene")).toBeVisible();
  await expectNoSidewaysScroll(page);
  // On a phone each order reads as a card whose cells name their column.
  const placed = page.locator('td[data-label="Placed"]').first();
  const label = await placed.evaluate((cell) => getComputedStyle(cell, "::before").content);
  expect(label).toContain("Placed");
});
