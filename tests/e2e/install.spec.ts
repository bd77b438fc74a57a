import { expect, test, type Page } from "@playwright/test";
import { installThroughConsent } from "./support/install";
import { emulatorControl } from "./support/servers";
import { keepScreenshot } from "./support/review";

/**
 * The install flow in Chromium against the emulator's real consent screen: multi-store install, denial, forged
 * state, re-install replacing the token, uninstall then install again, sign-out and the tenancy guard.
 */

type EmulatorInstall = { id: number; storeId: number; keyId: string; active: boolean };

async function emulatorInstall(storeId: number): Promise<EmulatorInstall | undefined> {
  const state = await emulatorControl<{ installs: EmulatorInstall[] }>("GET", "/_emulator/state");
  return state.installs.find((install) => install.storeId === storeId && install.active);
}

function storeCard(page: Page, name: string) {
  return page.getByRole("listitem").filter({ has: page.getByRole("heading", { name, exact: true }) });
}

/** Orders reach the app by the backfill that follows an install, which calls the platform with the stored token. */
async function expectOrderListed(page: Page, storeId: number, orderNumber: string): Promise<void> {
  await expect(async () => {
    await page.goto(`/stores/${storeId}/orders`);
    await expect(page.getByText(orderNumber)).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
}

test.beforeEach(async () => {
  // Fixtures as shipped, and fresh OAuth rate-limit counters (approve allows 10 per 10 minutes per client).
  await emulatorControl("POST", "/_emulator/reset");
});

test("installs on two of three stores and lists both, with secure cookies and no token anywhere", async ({ page, context }) => {
  await installThroughConsent(page, { storeIds: [101, 102] });

  await expect(page.getByRole("status")).toContainText("Connected to 2 stores: Amina Couture and Amina Maison.");
  for (const [name, id] of [["Amina Couture", 101], ["Amina Maison", 102]] as const) {
    const card = storeCard(page, name);
    await expect(card).toContainText(`Store #${id}`);
    await expect(card).toContainText("Active");
    await expect(card.getByRole("link", { name: `Orders of ${name}` })).toHaveAttribute("href", `/stores/${id}/orders`);
    await expect(card.getByRole("link", { name: `Categories of ${name}` })).toHaveAttribute("href", `/stores/${id}/categories`);
  }
  await expect(storeCard(page, "Amina Kids")).toHaveCount(0);
  await expect(page.getByRole("list", { name: "Installed stores" }).getByRole("listitem").filter({ hasText: "Store #" })).toHaveCount(2);

  const session = (await context.cookies()).find((cookie) => cookie.name === "app_session");
  expect(session).toMatchObject({ httpOnly: true, secure: true, sameSite: "Lax" });
  for (const cookie of await context.cookies()) expect(cookie.value).not.toContain("svcpk_live_");
  expect(await page.content()).not.toContain("svcpk_live_");
  await keepScreenshot(page, "installed-two-stores");

  // The landing page now leads to the stores.
  await page.goto("/");
  await expect(page.getByRole("link", { name: "Open your stores (2)" })).toBeVisible();
});

test("a denial shows what happened and offers a fresh start", async ({ page }) => {
  await installThroughConsent(page, { storeIds: [101], answer: "deny" });
  await expect(page.getByRole("heading", { name: "You declined the install" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Start again" })).toHaveAttribute("href", "/install");
  expect(await emulatorInstall(101)).toBeUndefined();
  await keepScreenshot(page, "install-denied");

  // Starting again leads back to the consent screen.
  await page.getByRole("link", { name: "Start again" }).click();
  await expect(page.getByRole("button", { name: "Approve" })).toBeVisible();
});

test("a forged state is refused and spends nothing: the merchant's own consent still completes, once", async ({ page }) => {
  await page.goto("/install");
  const signIn = page.getByRole("button", { name: /Sign in as/ }).first();
  await expect(signIn).toBeVisible();
  const consentUrl = page.url();

  // Another site sends the browser to the callback with a state of its own, while the merchant's attempt is open.
  const forged = `/oauth/callback?code=${"ab".repeat(32)}&state=forged-state-value`;
  await page.goto(forged);
  await expect(page).toHaveURL(/\/install\/failed\?reason=state_mismatch/);
  await expect(page.getByRole("heading", { name: "This answer does not belong to your install" })).toBeVisible();
  await keepScreenshot(page, "forged-state-refused");
  expect((await emulatorControl<{ installs: unknown[] }>("GET", "/_emulator/state")).installs).toEqual([]);

  // Back on the consent screen, the merchant's own attempt is intact.
  await page.goto(consentUrl);
  await signIn.click();
  await page.locator('input[name="store_id"][value="101"]').check();
  const callback = page.waitForRequest(/\/oauth\/callback\?/);
  await page.getByRole("button", { name: "Approve" }).click();
  const callbackUrl = (await callback).url();
  await page.waitForURL(/\/stores\?installed=101$/);
  expect((await emulatorInstall(101))?.active).toBe(true);

  // The attempt is single use: the same answer again finds no install in progress.
  await page.goto(callbackUrl);
  await expect(page.getByRole("heading", { name: "This install is no longer in progress" })).toBeVisible();
});

test("a re-install replaces the token: the platform issues a new key and the app's stored token works", async ({ page }) => {
  await installThroughConsent(page, { storeIds: [101] });
  const first = await emulatorInstall(101);
  expect(first).toBeDefined();

  const order = await emulatorControl<{ order_number: string }>("POST", "/_emulator/orders", { storeId: 101 });
  await installThroughConsent(page, { storeIds: [101] });
  await expect(page.getByRole("status")).toContainText("Connected to 1 store: Amina Couture.");
  const second = await emulatorInstall(101);
  expect(second?.id).toBe(first?.id);
  expect(second?.keyId).not.toBe(first?.keyId);
  await expect(storeCard(page, "Amina Couture")).toContainText("Active");

  // The old token is revoked; only the new, stored one can have fetched this order.
  await expectOrderListed(page, 101, order.order_number);
  await keepScreenshot(page, "reinstalled-token-works");
});

test("after an uninstall in the platform, installing again makes the store work again", async ({ page }) => {
  await installThroughConsent(page, { storeIds: [101, 103] });
  await emulatorControl("POST", "/_emulator/stores/103/uninstall");
  // The dispatcher delivers app.uninstalled to the app's webhook: the session loses the store, keeps the other.
  await emulatorControl("POST", "/_emulator/tick");
  await expect(async () => {
    expect((await page.goto("/stores/103/orders"))?.status()).toBe(404);
  }).toPass({ timeout: 15_000 });
  await page.goto("/stores");
  await expect(storeCard(page, "Amina Kids")).toHaveCount(0);
  await expect(storeCard(page, "Amina Couture")).toContainText("Active");
  await keepScreenshot(page, "uninstalled");

  const order = await emulatorControl<{ order_number: string }>("POST", "/_emulator/orders", { storeId: 103 });
  await installThroughConsent(page, { storeIds: [103] });
  await expect(storeCard(page, "Amina Kids")).toContainText("Active");
  expect((await emulatorInstall(103))?.active).toBe(true);
  await expectOrderListed(page, 103, order.order_number);
  await keepScreenshot(page, "reinstalled-after-uninstall");
});

test("a store outside the session is refused, and sign-out forgets the stores", async ({ page, browser }) => {
  await installThroughConsent(page, { storeIds: [101] });

  // Installed in the database, but not by this other browser.
  const stranger = await browser.newContext();
  const strangerPage = await stranger.newPage();
  expect((await strangerPage.goto("/stores/101/orders"))?.status()).toBe(404);
  expect((await strangerPage.goto("/stores/101/categories"))?.status()).toBe(404);
  await stranger.close();

  // A store the merchant never installed here.
  expect((await page.goto("/stores/102/orders"))?.status()).toBe(404);
  expect((await page.goto("/stores/abc/orders"))?.status()).toBe(404);

  await page.goto("/stores");
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("link", { name: "Install on your stores" })).toBeVisible();
  await expect(page.getByRole("link", { name: /Open your stores/ })).toHaveCount(0);
  expect((await page.goto("/stores/101/orders"))?.status()).toBe(404);
  await page.goto("/stores");
  await expect(page.getByText("No stores in this browser yet")).toBeVisible();
  await keepScreenshot(page, "signed-out");
});
