import { expect, test, type Page } from "@playwright/test";
import en from "../../messages/en.json" with { type: "json" };
import { installThroughConsent } from "./support/install";
import { APP_URL, emulatorControl } from "./support/servers";

/**
 * A path no page serves under a store the session holds (issue 51): it used to be answered by the root's 404,
 * which writes nothing on a held store, so the browser loaded it afresh again and again (9 document loads in 7.8 s,
 * "Checking this page…" for ever). Now the store's own not-found page answers it at once, with status 404, and the
 * document is the one shown: a link of the store's navigation then moves without a page load.
 */

test.beforeEach(async () => {
  await emulatorControl("POST", "/_emulator/reset");
});

/** The document loads of `path` this page has made so far, by status. */
function documentLoads(page: Page, path: string): number[] {
  const statuses: number[] = [];
  page.on("response", (response) => {
    if (response.request().resourceType() === "document" && new URL(response.url()).pathname === path) statuses.push(response.status());
  });
  return statuses;
}

test("an unknown path under a held store answers 404 with the store's not-found page, loaded at most twice", async ({ page, context }) => {
  await context.addCookies([{ name: "NEXT_LOCALE", value: "en", url: APP_URL }]);
  await installThroughConsent(page, { storeIds: [101] });

  for (const path of ["/stores/101/no-such-page", "/stores/101/orders/1/x"]) {
    const loads = documentLoads(page, path);
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: en.NotFound.storeTitle })).toBeVisible();
    await expect(page.getByText(en.NotFound.storeBody)).toBeVisible();
    await expect(page.getByText(en.NotFound.checking)).toBeHidden();

    // Once React has taken over the page (a reload, were one coming, is started by its first commit), the page
    // marks its document and follows a link of the store's navigation: the same document reaches the orders list.
    const orders = page.getByRole("navigation").getByRole("link", { name: en.Shell.orders });
    await expect.poll(() => orders.evaluate((link) => Object.keys(link).some((key) => key.startsWith("__reactProps$")))).toBe(true);
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    await orders.click();
    await expect(page).toHaveURL(/\/stores\/101\/orders$/);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    expect(await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument), path).toBe(true);

    expect(loads.length, `${path}: ${loads.join(", ")}`).toBeLessThanOrEqual(2);
    expect(loads.every((status) => status === 404), `${path}: ${loads.join(", ")}`).toBe(true);
  }
});
