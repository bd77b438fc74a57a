import { expect, type Page } from "@playwright/test";

export type ConsentOptions = {
  /** Stores to tick on the consent screen. */
  storeIds: number[];
  /** Fixture merchant to sign in as on the emulator (default "Amina Haddad", owner of stores 101-104). */
  merchant?: string;
  /** Press Approve (default) or Deny. */
  answer?: "approve" | "deny";
  /** The app's origin when it is not the suite's own app (the test's baseURL). */
  appUrl?: string;
  /** Where the flow starts (default "/install"): a sign-in link with its `return_to`, for instance. */
  start?: string;
  /** The page an approval lands on (default the store list). */
  landing?: RegExp;
};

/**
 * Drives the real install flow in the browser: the app's /install, the emulator's sign-in and consent screen,
 * back through /oauth/callback. Ends on /stores after an approval, on /install/failed after a denial.
 */
export async function installThroughConsent(page: Page, options: ConsentOptions): Promise<void> {
  await page.goto(`${options.appUrl ?? ""}${options.start ?? "/install"}`);
  // The emulator asks who is signing in only once per browser context.
  const signIn = page.getByRole("button", { name: `Sign in as ${options.merchant ?? "Amina Haddad"}` });
  const approve = page.getByRole("button", { name: "Approve" });
  await expect(signIn.or(approve)).toBeVisible();
  if (await signIn.isVisible()) await signIn.click();
  await expect(approve).toBeVisible();

  for (const storeId of options.storeIds) {
    await page.locator(`input[name="store_id"][value="${storeId}"]`).check();
  }
  if ((options.answer ?? "approve") === "deny") {
    await page.getByRole("button", { name: "Deny" }).click();
    await page.waitForURL(/\/install\/failed\?/);
    return;
  }
  await approve.click();
  await page.waitForURL(options.landing ?? /\/stores(\?|$)/);
}
