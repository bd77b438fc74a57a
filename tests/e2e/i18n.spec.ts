import { expect, test, type Page } from "@playwright/test";
import { installThroughConsent } from "./support/install";
import { APP_URL, emulatorControl } from "./support/servers";
import { expectNoSeriousAxe, keepScreenshot, WCAG_AA } from "./support/review";

/**
 * Every page in every locale, on a phone (390 px) and a desktop (1280 px): the right language and direction, no
 * serious or critical axe violation, nothing wider than a 320 px screen, and a screenshot of each for review
 * (test-results/). Then a keyboard-only journey through install, orders and categories, in Arabic.
 */

const STORE = 101;
const WIDTHS = [390, 1280] as const;

type Locale = "ar" | "fr" | "en";

/** What tells each locale apart on a page: its direction and a word of its navigation. */
const EXPECT: Record<Locale, { dir: "rtl" | "ltr"; orders: string; categories: string }> = {
  ar: { dir: "rtl", orders: "الطلبات", categories: "الفئات" },
  fr: { dir: "ltr", orders: "Commandes", categories: "Catégories" },
  en: { dir: "ltr", orders: "Orders", categories: "Categories" },
};

async function checkPage(page: Page, locale: Locale, name: string): Promise<void> {
  await expect(page.locator("html")).toHaveAttribute("lang", locale);
  await expect(page.locator("html")).toHaveAttribute("dir", EXPECT[locale].dir);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSeriousAxe(page, { tags: WCAG_AA, label: `${name} (${locale}, ${width} px)` });
    await keepScreenshot(page, `${locale}-${name}-${width}`);
  }
  await page.setViewportSize({ width: 320, height: 900 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${name} (${locale}) is wider than 320 px`).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 900 });
}

test.beforeEach(async () => {
  await emulatorControl("POST", "/_emulator/reset");
});

for (const locale of ["ar", "fr", "en"] as const) {
  test.describe(`in ${locale}`, () => {
    // French comes from the browser's languages, Arabic from the switcher, English from the browser too.
    test.use({ locale: locale === "fr" ? "fr-DZ" : "en-US" });

    test("every page reads in the language, fits a phone, and passes axe", async ({ page, context }) => {
      // Nine pages, each checked by axe at two widths and photographed: longer than one page's test.
      test.setTimeout(240_000);
      await page.goto("/");
      if (locale === "ar") {
        await expect(page.locator("html")).toHaveAttribute("lang", "en");
        await page.getByRole("button", { name: "العربية" }).click();
        await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
        const cookie = (await context.cookies()).find((entry) => entry.name === "NEXT_LOCALE");
        expect(cookie).toMatchObject({ value: "ar", httpOnly: true, sameSite: "Lax" });
      }
      await checkPage(page, locale, "home");

      await page.goto("/stores");
      await expect(page.getByRole("button", { name: /Sign out|Se déconnecter|تسجيل الخروج/ })).toHaveCount(0);
      await checkPage(page, locale, "stores-signed-out");

      await page.goto("/install/failed?reason=access_denied");
      await checkPage(page, locale, "install-failed");

      await installThroughConsent(page, { storeIds: [STORE] });
      await expect(page.locator("html")).toHaveAttribute("lang", locale);
      // Scopes in words, never as orders:read.
      await expect(page.locator("[data-scope]").first()).toBeVisible();
      expect(await page.locator("[data-scope]").allInnerTexts()).not.toContainEqual(expect.stringMatching(/^\w+:\w+$/));
      await checkPage(page, locale, "stores");

      await expect(async () => {
        await page.goto(`/stores/${STORE}/orders`);
        await expect(page.locator(".orders-table tbody tr").first()).toBeVisible({ timeout: 1_000 });
      }).toPass({ timeout: 20_000 });
      await expect(page.getByRole("navigation").getByRole("link", { name: EXPECT[locale].orders, exact: true })).toHaveAttribute(
        "aria-current",
        "page",
      );
      if (locale === "ar") {
        // Arabic pages read Western digits (ar-DZ), in amounts and dates alike.
        const text = await page.locator("tbody").innerText();
        expect(text).toMatch(/[0-9]/);
        expect(text).not.toMatch(/[\u0660-\u0669]/);
      }
      await checkPage(page, locale, "orders");

      const firstOrder = page.locator(".orders-table tbody tr th a").first();
      const orderHref = (await firstOrder.getAttribute("href")) ?? "";
      await page.goto(orderHref);
      await checkPage(page, locale, "order");

      const missing = await page.goto(`/stores/${STORE}/orders/999999999`);
      expect(missing?.status()).toBe(404);
      await page.locator("[data-not-found=order] a").click();
      await expect(page).toHaveURL(`/stores/${STORE}/orders`);
      await page.goto(`/stores/${STORE}/orders/999999999`);
      await checkPage(page, locale, "order-not-found");

      await page.goto(`/stores/${STORE}/categories`);
      await expect(page.locator("article[data-category-id]").first()).toBeVisible();
      await checkPage(page, locale, "categories");

      const notFound = await page.goto("/no-such-page");
      expect(notFound?.status()).toBe(404);
      await checkPage(page, locale, "not-found");
    });
  });
}

/** Presses Tab (or Shift+Tab) until the target has the focus. */
async function tabTo(page: Page, target: ReturnType<Page["locator"]>, backwards = false): Promise<void> {
  for (let presses = 0; presses < 80; presses++) {
    if (await target.evaluate((element) => element === document.activeElement).catch(() => false)) return;
    await page.keyboard.press(backwards ? "Shift+Tab" : "Tab");
  }
  throw new Error("the target never received the focus");
}

test("answers that are not pages speak the merchant's language too: the proxy's refusal and sign-out's 404", async ({ page, context }) => {
  await installThroughConsent(page, { storeIds: [STORE] });
  await context.addCookies([{ name: "NEXT_LOCALE", value: "ar", url: APP_URL }]);
  const crossSite = await context.request.post("/signout", { headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" }, maxRedirects: 0 });
  expect(crossSite.status()).toBe(403);
  // The merchant's language first, then the others (the page that sent it may be anyone's).
  expect(await crossSite.text()).toMatch(/^أُرسل هذا الطلب من موقع آخر[^]*Cette requête venait d’un autre site[^]*sent by another website/);
  await context.addCookies([{ name: "NEXT_LOCALE", value: "fr", url: APP_URL }]);
  const notHeld = await context.request.post("/signout/everywhere", { form: { storeId: "999" }, maxRedirects: 0 });
  expect(notHeld.status()).toBe(404);
  expect(await notHeld.text()).toBe("Introuvable : ce navigateur n’a aucune session ouverte sur cette boutique.");
});

test("a keyboard-only journey through install, orders and categories (Arabic)", async ({ page, context }) => {
  test.setTimeout(120_000);
  await context.addCookies([{ name: "NEXT_LOCALE", value: "ar", url: APP_URL }]);
  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");

  // Install: the start page's link, then the platform's consent screen, by keyboard alone.
  await tabTo(page, page.getByRole("link", { name: "التثبيت على متاجرك" }));
  await page.keyboard.press("Enter");
  const signIn = page.getByRole("button", { name: "Sign in as Amina Haddad" });
  await expect(signIn).toBeVisible();
  await tabTo(page, signIn);
  await page.keyboard.press("Enter");
  const storeBox = page.locator(`input[name="store_id"][value="${STORE}"]`);
  await tabTo(page, storeBox);
  await page.keyboard.press("Space");
  await tabTo(page, page.getByRole("button", { name: "Approve" }));
  await page.keyboard.press("Enter");
  await page.waitForURL(/\/stores(\?|$)/);
  await expect(page.getByRole("status")).toContainText("متصل بمتجر واحد");

  // Orders: from the store card to the list, then one order.
  await tabTo(page, page.getByRole("link", { name: /^الطلبات/ }).first());
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(`/stores/${STORE}/orders`);
  await expect(async () => {
    await page.reload();
    await expect(page.locator(".orders-table tbody tr").first()).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  const order = page.locator(".orders-table tbody tr th a").first();
  await tabTo(page, order);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/stores/${STORE}/orders/\\d+$`));
  await expect(page.getByRole("heading", { level: 2, name: "المنتجات" })).toBeVisible();

  // Categories: the section link, then a move by keyboard that keeps the focus on the moved row.
  await tabTo(page, page.getByRole("navigation", { name: "أقسام المتجر" }).getByRole("link", { name: "الفئات" }), true);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(`/stores/${STORE}/categories`);
  const topLevel = page.getByRole("list", { name: "فئات المستوى الأول" });
  // The list's live region sits just before it (the subcategory lists inside have their own).
  const announced = topLevel.locator("xpath=preceding-sibling::p[@role='status']");
  const second = topLevel.locator(":scope > li").nth(1);
  const name = (await second.locator("h3").first().innerText()).trim();
  const down = page.getByRole("button", { name: `نقل «${name}» إلى الأسفل` });
  // The editor hydrates just after the page has loaded; until then its move buttons say they are unavailable.
  await expect(down).toBeEnabled();
  await tabTo(page, down);
  await page.keyboard.press("Enter");
  await expect(announced).toHaveText(`نُقلت «${name}» إلى الموضع 3 من 7.`);
  await expect(down).toBeFocused();
  // A second Enter moves it again: the focus never fell to the page.
  await page.keyboard.press("Enter");
  await expect(announced).toHaveText(`نُقلت «${name}» إلى الموضع 4 من 7.`);
  await expect(down).toBeFocused();
  await expect(topLevel.locator(":scope > li").nth(3).locator("h3").first()).toHaveText(name);
});
