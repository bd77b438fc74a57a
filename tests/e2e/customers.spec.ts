import { expect, test } from "@playwright/test";
import { installThroughConsent } from "./support/install";
import { emulatorControl } from "./support/servers";

/** The customers page against the emulator: the platform's list a page at a time, and its refusals explained. */

const PAGE = "/stores/101/customers";

async function queueFaults(faults: { kind: "status"; status: number; method?: string; pathPrefix?: string; times?: number }[]): Promise<void> {
  await emulatorControl("POST", "/_emulator/faults", { faults });
}

test.beforeEach(async () => {
  await emulatorControl("POST", "/_emulator/reset");
});

test("lists the store's customers a page at a time", async ({ page }) => {
  await installThroughConsent(page, { storeIds: [101] });
  await page.goto(PAGE);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Customers");
  await expect(page.locator("tbody tr")).toHaveCount(10);
  await page.getByRole("link", { name: "Older" }).click();
  await expect(page.locator("tbody tr")).toHaveCount(2);
  await expect(page.getByRole("link", { name: "Newest" })).toHaveAttribute("href", PAGE);
});

test("explains an outage with Try again", async ({ page }) => {
  await installThroughConsent(page, { storeIds: [101] });
  await queueFaults([{ kind: "status", status: 503, method: "GET", pathPrefix: "/v1/customers", times: 2 }]);
  await page.goto(PAGE);
  const panel = page.getByRole("alert", { name: "The customers could not be loaded" });
  await expect(panel.getByRole("link", { name: "Try again" })).toHaveAttribute("href", PAGE);
});
