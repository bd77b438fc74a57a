import { expect, test, type Browser, type BrowserContext, type Page } from "@playwright/test";
import ar from "../../messages/ar.json" with { type: "json" };
import en from "../../messages/en.json" with { type: "json" };
import fr from "../../messages/fr.json" with { type: "json" };
import { installThroughConsent } from "./support/install";
import { APP_URL, emulatorControl } from "./support/servers";
import { expectNoSeriousAxe, keepScreenshot, WCAG_AA } from "./support/review";

/**
 * The UI points of issue 26, in the three locales, on phones where they are about phones: amounts on one line,
 * the store switcher inside 320 px, whole order rows tappable with the number's distinguishing tail visible, the
 * phone as a tel: link, 24-hour times, a pending navigation shown, no console error, and a category move that says
 * where it went and keeps the focus on the row.
 */

const CATALOGUES = { ar, fr, en } as const;
type Locale = keyof typeof CATALOGUES;
const LOCALES: Locale[] = ["ar", "fr", "en"];
const STORE = 101;

async function browserIn(browser: Browser, locale: Locale, width: number): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height: 844 } });
  await context.addCookies([{ name: "NEXT_LOCALE", value: locale, url: APP_URL }]);
  return { context, page: await context.newPage() };
}

/** The message with its {placeholders} filled, as the pages do. */
function fill(message: string, values: Record<string, string>): string {
  return message.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? "");
}

async function documentWidth(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth);
}

test.beforeEach(async () => {
  await emulatorControl("POST", "/_emulator/reset");
});

for (const locale of LOCALES) {
  const m = CATALOGUES[locale];

  test(`in ${locale}: amounts on one line, the switcher inside 320 px, tappable order rows, tel: links, 24-hour times`, async ({ browser }) => {
    test.setTimeout(150_000);
    const { context, page } = await browserIn(browser, locale, 390);
    const errors: string[] = [];
    page.on("console", (message) => {
      // The app's own pages only: the emulator's consent screen (another origin) is not under test here.
      if (message.type() === "error" && message.location().url.startsWith(APP_URL)) errors.push(`${message.text()} (${message.location().url})`);
    });
    page.on("pageerror", (error) => errors.push(error.message));
    await emulatorControl("POST", `/_emulator/stores/${STORE}/settings`, { analyticsRevenueVisible: true });
    await installThroughConsent(page, { storeIds: [STORE, 102, 103] });

    // The list of stores: the permissions the stores share are listed once, not on every card; each card's links
    // are 44 px tall on a phone.
    await expect(page.locator("[data-shared-scopes]")).toHaveCount(1);
    await expect(page.locator("[data-shared-scopes] [data-scope]").first()).toBeVisible();
    await expect(page.locator("[data-store-id] [data-scope]")).toHaveCount(0);
    for (const link of await page.locator(`[data-store-id="${STORE}"] a`).all()) {
      expect((await link.boundingBox())?.height, await link.innerText()).toBeGreaterThanOrEqual(44);
    }
    await keepScreenshot(page, `stores-${locale}-390`);

    // The key figures: each amount on one line, inside its tile, on a phone and on a desktop.
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`/stores/${STORE}?range=30d`);
      await expect(page.locator('[data-kpi="revenue"][data-state="ok"]')).toBeVisible();
      const values = page.locator("[data-kpi] [data-value]");
      expect(await values.count()).toBeGreaterThan(2);
      for (const value of await values.all()) {
        const lines = await value.evaluate((element) => {
          const range = document.createRange();
          range.selectNodeContents(element);
          return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
        });
        expect(lines, `${await value.innerText()} at ${width} px`).toBe(1);
        expect(await value.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
      }
      // The tables' column headings ("Commandes") stay inside their cards.
      for (const heading of await page.locator("[data-table] thead th").all()) {
        const fits = await heading.evaluate((element) => {
          const own = element.getBoundingClientRect();
          const card = element.closest("section")?.getBoundingClientRect();
          return element.scrollWidth <= element.clientWidth + 1 && !!card && own.left >= card.left - 1 && own.right <= card.right + 1;
        });
        expect(fits, `${await heading.innerText()} at ${width} px`).toBe(true);
      }
      if (width === 390) {
        // On a phone the language buttons and the section links are 44 px targets.
        for (const control of await page.locator(`header form[aria-label="${m.Shell.language}"] button, header nav[aria-label="${m.Shell.sections}"] a`).all()) {
          const box = await control.boundingBox();
          expect(box?.height, await control.innerText()).toBeGreaterThanOrEqual(44);
          expect(box?.width, await control.innerText()).toBeGreaterThanOrEqual(44);
        }
        await keepScreenshot(page, `overview-${locale}-390`);
      }
    }

    // A one-day period is said as that day, not "from 24 Nov to 24 Nov", above the figures and in the charts.
    await page.goto(`/stores/${STORE}?range=today`);
    const [before, after] = m.Overview.summary.day.split("{date}") as [string, string];
    const dayLine = (await page.locator("[data-period] p").first().innerText()).trim();
    expect(dayLine.startsWith(before) && dayLine.endsWith(after)).toBe(true);
    const date = dayLine.slice(before.length, dayLine.length - after.length);
    const chartSummary = (await page.locator('[data-chart="orders-chart"] [data-summary]').getAttribute("aria-label")) ?? "";
    expect(chartSummary.split(date).length - 1, chartSummary).toBe(1);

    // A client-side navigation shows it is pending: held here until the bar is seen, then let through.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const ordersUrl = (url: URL) => url.pathname === `/stores/${STORE}/orders`;
    await page.route(
      ordersUrl,
      async (route) => {
        if (route.request().headers()["rsc"]) await held;
        await route.continue();
      },
    );
    await page.getByRole("navigation").getByRole("link", { name: m.Shell.orders, exact: true }).click();
    await expect(page.locator("[data-navigating]")).toHaveCount(1);
    expect(await page.evaluate(() => getComputedStyle(document.body, "::before").height)).toBe("3px");
    release();
    await expect(page).toHaveURL(new RegExp(`/stores/${STORE}/orders$`));
    await expect(page.locator("[data-navigating]")).toHaveCount(0);
    await page.unroute(ordersUrl);

    // The store switcher, open, at 320 px: the page stays 320 px wide and the menu inside it.
    await page.setViewportSize({ width: 320, height: 800 });
    await page.goto(`/stores/${STORE}/orders`);
    await page.locator("header details summary").click();
    const menu = page.locator("header details nav");
    await expect(menu).toBeVisible();
    expect(await documentWidth(page)).toBe(320);
    const box = await menu.boundingBox();
    expect(box?.x).toBeGreaterThanOrEqual(0);
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(320);
    await keepScreenshot(page, `switcher-open-${locale}-320`);
    await page.locator("header details summary").click();

    // Orders on a phone: every row is a tap target, and the 8 hex digits that tell orders apart are in full view.
    for (const width of [320, 390]) {
      await page.setViewportSize({ width, height: 844 });
      await expect(async () => {
        await page.goto(`/stores/${STORE}/orders`);
        await expect(page.locator(".orders-table tbody tr").first()).toBeVisible({ timeout: 1_000 });
      }).toPass({ timeout: 20_000 });
      // The number is the link's one text node; its last 8 characters must lie inside the link's box and cell, not
      // under the ellipsis (which the CSS puts at the number's front).
      for (const link of await page.locator(".orders-table tbody th a").all()) {
        await expect(link).toHaveText(/-[0-9a-f]{8}$/);
        const fits = await link.evaluate((element) => {
          const text = element.firstChild;
          if (element.childNodes.length !== 1 || !(text instanceof Text)) return false;
          const range = document.createRange();
          range.setStart(text, text.length - 8);
          range.setEnd(text, text.length);
          const own = range.getBoundingClientRect();
          const box = element.getBoundingClientRect();
          const cell = element.closest("th")!.getBoundingClientRect();
          const inside = (outer: DOMRect) => own.left >= outer.left - 1 && own.right <= outer.right + 1;
          return inside(box) && inside(cell);
        });
        expect(fits).toBe(true);
      }
      // 24-hour times, in every locale.
      const date = await page.locator(".orders-table tbody tr").first().locator("td").first().innerText();
      expect(date).toMatch(/\b\d{2}:\d{2}\b/);
      expect(date).not.toMatch(/\d{2}:\d{2}\s*(AM|PM|ص|م)/);
      expect(await documentWidth(page)).toBe(width);
      await keepScreenshot(page, `orders-${locale}-${width}`);
    }
    // A tap on the row's status badge, far from the number, opens the order.
    const first = page.locator(".orders-table tbody tr").first();
    const href = (await first.locator("th a").getAttribute("href")) ?? "";
    // The oldest order on the page came with the import at install; the newest may have come since by a webhook
    // another test's store activity sent (its history starts with that event, not with an import).
    const importedHref = (await page.locator(".orders-table tbody tr").last().locator("th a").getAttribute("href")) ?? "";
    const badge = await first.locator("td").last().boundingBox();
    expect(badge).not.toBeNull();
    // A thumb's tap (mouse coordinates, not a click on the element: the row's link lies over the whole row).
    await page.mouse.click((badge?.x ?? 0) + (badge?.width ?? 0) / 2, (badge?.y ?? 0) + (badge?.height ?? 0) / 2);
    await expect(page).toHaveURL(new RegExp(`${href}$`));

    // An imported order's history starts at its import, and says so.
    await page.goto(importedHref);
    await expect(page.locator("[data-first-seen]")).toContainText(m.Order.historyStarts);
    // Item names sit at the start edge of the page's direction, whatever their own (a French name in Arabic too).
    const name = page.locator("[data-item-name] bdi").first();
    const [own, cell] = await name.evaluate((element) => [element.getBoundingClientRect().toJSON(), element.closest("td")!.getBoundingClientRect().toJSON()]);
    if (locale === "ar") expect(own.right).toBeGreaterThanOrEqual(cell.right - 1);
    else expect(own.left).toBeLessThanOrEqual(cell.left + 1);

    // The order: the customer's phone is a link to call.
    const tel = page.locator('a[href^="tel:"]');
    await expect(tel).toHaveAttribute("href", /^tel:\+?\d{6,}$/);
    await expect(tel).toHaveAttribute("dir", "ltr");
    const telBox = await tel.boundingBox();
    expect(telBox?.height).toBeGreaterThanOrEqual(44);
    await keepScreenshot(page, `order-${locale}-390`);
    await expectNoSeriousAxe(page, { tags: WCAG_AA });

    expect(errors).toEqual([]);
    await context.close();
  });

  test(`in ${locale}: a category moved under another says where it went, and the focus stays on its row`, async ({ browser }) => {
    const { context, page } = await browserIn(browser, locale, 390);
    await installThroughConsent(page, { storeIds: [STORE] });
    await page.goto(`/stores/${STORE}/categories`);
    const byName = (name: string) => page.locator("article[data-category-id]").filter({ has: page.getByRole("heading", { level: 3, name, exact: true }) }).first();
    const soldes = byName("Soldes");
    const id = await soldes.getAttribute("data-category-id");
    const accessoiresId = await byName("Accessoires").getAttribute("data-category-id");

    await soldes.locator("[data-row-edit]").click();
    const form = soldes.locator("form").first();
    await form.locator('select[name="parentId"]').selectOption({ label: "Accessoires" });
    await form.locator('button[type="submit"]').click();

    const toast = page.locator("[data-toast]");
    await expect(toast).toHaveRole("status");
    await expect(toast).toHaveText(fill(m.Categories.movedUnder, { name: "Soldes", parent: "\u2068Accessoires\u2069" }));
    const moved = page.locator(`article[data-category-id="${accessoiresId}"] article[data-category-id="${id}"]`);
    await expect(moved).toBeVisible();
    await expect(moved.locator("[data-row-edit]")).toBeFocused();
    await expect(moved).toBeInViewport();
    await keepScreenshot(page, `category-moved-${locale}-390`);

    // A rename: one message (the last replaces it), the focus on the renamed row's Edit button.
    const row = page.locator(`article[data-category-id="${id}"]`);
    await row.locator("[data-row-edit]").click();
    await row.locator('input[name="name"]').fill("Soldes d’été");
    await row.locator('form button[type="submit"]').click();
    await expect(toast).toHaveText(fill(m.Categories.renamed, { from: "Soldes", name: "Soldes d’été" }));
    await expect(page.locator("[data-toast], [role=status][data-outcome=ok]").filter({ hasText: /\S/ })).toHaveCount(1);
    await expect(row.locator("[data-row-edit]")).toBeFocused();
    await expectNoSeriousAxe(page, { tags: WCAG_AA });

    // A name already in the store is flagged before anything is sent; pressing again sends it.
    const create = page.locator("form").filter({ has: page.locator('input[name="name"]') }).first();
    const categories = page.locator("article[data-category-id]");
    const before = await categories.count();
    await create.locator('input[name="name"]').fill("  accessoires ");
    await create.locator('button[type="submit"]').click();
    const flag = create.locator("[data-duplicate-name]");
    await expect(flag).toHaveRole("alert");
    await expect(flag).toHaveText(fill(m.Categories.duplicateName, { name: "\u2068accessoires\u2069" }));
    await expect(create.locator('input[name="name"]')).toBeFocused();
    await page.waitForTimeout(500);
    expect(await categories.count()).toBe(before);
    await keepScreenshot(page, `category-duplicate-${locale}-390`);
    await create.locator('button[type="submit"]').click();
    await expect(categories).toHaveCount(before + 1);
    await expect(flag).toHaveCount(0);
    await context.close();
  });
}
