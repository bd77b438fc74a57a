import { expect, test, type Browser, type BrowserContext } from "@playwright/test";
import { installThroughConsent } from "./support/install";
import { emulatorControl } from "./support/servers";
import { keepScreenshot } from "./support/review";

/**
 * Sessions as a merchant lives them: signing in again (and landing where they were going), a copied cookie after
 * sign-out or an uninstall, sign out everywhere across devices, and the refusals around them (another site's
 * sign-out, a forged list link). Expiry with a moved clock is in tests/integration/sessions.test.ts, and in a browser
 * in session-end.spec.ts.
 */

/** A second browser holding a copy of this context's session cookie: what a stolen cookie would open. */
async function cookieCopy(browser: Browser, from: BrowserContext): Promise<BrowserContext> {
  const copy = await browser.newContext();
  await copy.addCookies((await from.cookies()).filter((cookie) => cookie.name === "app_session"));
  return copy;
}

async function status(context: BrowserContext, path: string): Promise<number> {
  const page = await context.newPage();
  const response = await page.goto(path);
  await page.close();
  return response?.status() ?? 0;
}

test.beforeEach(async () => {
  await emulatorControl("POST", "/_emulator/reset");
});

test("a returning merchant signs in from the landing page, or from a store page, and lands where they were going", async ({ page }) => {
  await page.goto("/");
  const signIn = page.getByRole("link", { name: "Sign in" });
  await expect(signIn).toHaveAttribute("href", "/install");
  await expect(signIn).toHaveAccessibleDescription(/choose your stores again, and nothing is lost/);
  await keepScreenshot(page, "landing-sign-in");

  // A bookmarked store page, signed out: the 404 offers the same sign-in, and it comes back to this page.
  const response = await page.goto("/stores/102/orders?status=shipped");
  expect(response?.status()).toBe(404);
  const storeSignIn = page.getByRole("link", { name: "Sign in" });
  await expect(storeSignIn).toHaveAttribute("href", `/install?return_to=${encodeURIComponent("/stores/102/orders?status=shipped")}`);
  await keepScreenshot(page, "store-page-signed-out");
  await storeSignIn.click();
  await installThroughConsent(page, { storeIds: [101, 102], start: page.url(), landing: /\/stores\/102\/orders\?status=shipped$/ });
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Amina Maison");

  // A store left unticked would be a 404: the merchant lands on the list of stores instead.
  await page.goto(`/install?return_to=${encodeURIComponent("/stores/103/orders")}`);
  await installThroughConsent(page, { storeIds: [101], start: page.url() });
  await expect(page).toHaveURL(/\/stores\?installed=101$/);
});

test("after sign-out, a copy of the session cookie opens nothing", async ({ page, context, browser }) => {
  await installThroughConsent(page, { storeIds: [101] });
  const copy = await cookieCopy(browser, context);
  expect(await status(copy, "/stores/101/orders")).toBe(200);

  await page.goto("/stores/101/orders");
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  expect(await status(copy, "/stores/101/orders")).toBe(404);
  await copy.close();
});

test("a copy of the cookie used to consent again opens none of the merchant's stores once the merchant signs out", async ({ page, context, browser }) => {
  await installThroughConsent(page, { storeIds: [101, 102] });
  // The list of stores, which does not refresh itself: an orders page would, and after the replacement below its next
  // refresh would show the store gone before the merchant can press Sign out (on a slow machine, it did).
  await page.goto("/stores");
  // Someone with a copy of the cookie consents for a store of their own: their new session carries 101 and 102.
  const copy = await cookieCopy(browser, context);
  const copyPage = await copy.newPage();
  await installThroughConsent(copyPage, { storeIds: [103] });
  expect(await status(copy, "/stores/102/orders")).toBe(200);
  // The merchant signs out from the page still open in the original browser.
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  for (const storeId of [101, 102, 103]) expect(await status(copy, `/stores/${storeId}/orders`)).toBe(404);
  await copy.close();
});

test("after an uninstall, the session and any copy of its cookie lose that store at once and keep the other", async ({ page, context, browser }) => {
  await installThroughConsent(page, { storeIds: [101, 103] });
  const copy = await cookieCopy(browser, context);
  await emulatorControl("POST", "/_emulator/stores/103/uninstall");
  await emulatorControl("POST", "/_emulator/tick");
  await expect(async () => expect(await status(copy, "/stores/103/orders")).toBe(404)).toPass({ timeout: 15_000 });
  expect(await status(context, "/stores/103/categories")).toBe(404);
  expect(await status(copy, "/stores/101/orders")).toBe(200);
  expect(await status(context, "/stores/101/orders")).toBe(200);
  await copy.close();
});

test("two devices stay signed in side by side, and sign out everywhere ends every session holding the store", async ({ page, browser }) => {
  await installThroughConsent(page, { storeIds: [101] });
  // The laptop, then the phone: consenting again on the phone does not end the laptop's session.
  const phone = await browser.newContext({ viewport: { width: 320, height: 720 } });
  const phonePage = await phone.newPage();
  await installThroughConsent(phonePage, { storeIds: [101, 102] });
  // A third browser with another store only.
  const other = await browser.newContext();
  await installThroughConsent(await other.newPage(), { storeIds: [102] });
  expect(await status(page.context(), "/stores/101/orders")).toBe(200);

  await phonePage.goto("/stores/101");
  const button = phonePage.getByRole("button", { name: "Sign out everywhere" });
  await expect(button).toHaveAccessibleDescription(/Ends every session that opens \u2068Amina Couture\u2069: on your phone/);
  await button.scrollIntoViewIfNeeded();
  await keepScreenshot(phonePage, "sign-out-everywhere-phone");
  await button.click();
  // Asked once, with the store named: nothing has ended yet.
  await expect(phonePage).toHaveURL(/\/signout\/everywhere\/confirm\?storeId=101$/);
  await expect(phonePage.getByRole("heading", { level: 1 })).toHaveText("Sign out of \u2068Amina Couture\u2069 on every device?");
  expect(await status(page.context(), "/stores/101/orders")).toBe(200);
  await keepScreenshot(phonePage, "sign-out-everywhere-confirm-phone");
  await phonePage.getByRole("link", { name: "No, back to the store" }).click();
  await expect(phonePage).toHaveURL(/\/stores\/101$/);
  await button.click();
  await phonePage.getByRole("button", { name: "Yes, sign out everywhere" }).click();
  await expect(phonePage).toHaveURL(/\/\?signed_out=everywhere$/);
  await expect(phonePage.getByRole("status")).toHaveText("You are signed out of that store on every device.");

  expect(await status(page.context(), "/stores/101/orders")).toBe(404);
  expect(await status(phone, "/stores/102/orders")).toBe(404);
  // A session that never held the store stays open.
  expect(await status(other, "/stores/102/orders")).toBe(200);
  await phone.close();
  await other.close();
});

test("another site's sign-out is refused, even carrying the cookie; the app's own goes through", async ({ page, context }) => {
  await installThroughConsent(page, { storeIds: [101] });
  const refused = await context.request.post("/signout", {
    headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    maxRedirects: 0,
  });
  expect(refused.status()).toBe(403);
  expect(await refused.text()).toContain("sent by another website");
  expect(await status(context, "/stores/101/orders")).toBe(200);

  const everywhere = await context.request.post("/signout/everywhere", {
    headers: { origin: "https://evil.example" },
    form: { storeId: "101" },
    maxRedirects: 0,
  });
  expect(everywhere.status()).toBe(403);
  expect(await status(context, "/stores/101/orders")).toBe(200);
});

test("prefetch answers carry the same security headers as pages", async ({ page, context }) => {
  await installThroughConsent(page, { storeIds: [101] });
  const prefetches: Record<string, string>[] = [{ "next-router-prefetch": "1", rsc: "1" }, { purpose: "prefetch" }];
  for (const headers of prefetches) {
    const answer = await context.request.get("/stores/101/orders", { headers });
    expect(answer.status()).toBe(200);
    expect(answer.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(answer.headers()["x-frame-options"]).toBe("DENY");
  }
});

test("a forged orders page link answers 404 with the way back, not the error page", async ({ page }) => {
  await installThroughConsent(page, { storeIds: [101] });
  for (const cursor of [Buffer.from('["9999999999999999999",1]').toString("base64url"), "not-a-cursor"]) {
    const response = await page.goto(`/stores/101/orders?cursor=${cursor}`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "This page of orders does not exist" })).toBeVisible();
  }
  await keepScreenshot(page, "forged-cursor");
  await page.getByRole("link", { name: "Back to the orders" }).click();
  await expect(page).toHaveURL(/\/stores\/101\/orders$/);
});
