import { expect, test, type Page } from "@playwright/test";
import { installThroughConsent } from "./support/install";
import { APP_URL, emulatorControl } from "./support/servers";
import { expectNoSeriousAxe, keepScreenshot } from "./support/review";

/**
 * The store overview (/stores/{id}) against the emulator: its figures recomputed here from the emulator's own
 * orders, withheld revenue, the platform's refusals, the period checks, every locale at phone and desktop width
 * with axe, and the page's first-load JavaScript.
 */

const STORE = 101;
const OVERVIEW = `/stores/${STORE}`;
const DAY = 86_400_000;
/**
 * Locales the app serves, each with the overview's title in it. The figures tests run in English (the browser's
 * language); these check each locale's page as a whole, chosen with the switcher's cookie.
 */
const LOCALES = { ar: "نظرة عامة", fr: "Vue d’ensemble", en: "Overview" } as const;
const WIDTHS = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 1000 },
] as const;

type EmulatorOrder = {
  id: number;
  status: string;
  total: number;
  created_at: string;
  wilaya_id: number;
  wilaya_name: string;
  items: { product_id: number; product_name: string; quantity: number }[];
};

/** Algeria's calendar date of an instant, from Intl (the emulator uses its own fixed offset). */
const algiersDate = (ms: number) => new Intl.DateTimeFormat("en-CA", { timeZone: "Africa/Algiers" }).format(ms);

async function emulatorNow(): Promise<number> {
  return Date.parse((await emulatorControl<{ now: string }>("GET", "/_emulator/clock")).now);
}

/** What the overview must show for [from, to], computed from the orders as the emulator stores them. */
async function expectedFigures(from: string, to: string) {
  const { orders } = await emulatorControl<{ orders: EmulatorOrder[] }>("GET", `/_emulator/stores/${STORE}/orders`);
  const inPeriod = orders.filter((order) => {
    const day = algiersDate(Date.parse(order.created_at));
    return day >= from && day <= to;
  });
  const paying = inPeriod.filter((order) => order.status !== "cancelled" && order.status !== "returned");
  const revenue = Math.round(paying.reduce((sum, order) => sum + order.total, 0) * 100) / 100;
  const perDay = new Map<string, number>();
  const wilayas = new Map<number, { name: string; id: number; orders: number }>();
  const products = new Map<number, { name: string; id: number; quantity: number }>();
  for (const order of inPeriod) {
    const day = algiersDate(Date.parse(order.created_at));
    perDay.set(day, (perDay.get(day) ?? 0) + 1);
    const wilaya = wilayas.get(order.wilaya_id) ?? { name: order.wilaya_name, id: order.wilaya_id, orders: 0 };
    wilaya.orders += 1;
    wilayas.set(order.wilaya_id, wilaya);
    for (const item of order.items) {
      const product = products.get(item.product_id) ?? { name: item.product_name, id: item.product_id, quantity: 0 };
      product.quantity += item.quantity;
      products.set(item.product_id, product);
    }
  }
  return {
    orders: inPeriod.length,
    revenue,
    perDay,
    topWilayas: [...wilayas.values()].sort((a, b) => b.orders - a.orders || a.id - b.id).slice(0, 5),
    topProducts: [...products.values()].sort((a, b) => b.quantity - a.quantity || a.id - b.id).slice(0, 5),
  };
}

function tile(page: Page, kpi: string) {
  return page.locator(`[data-kpi="${kpi}"]`);
}

async function rowsOf(page: Page, table: string): Promise<string[][]> {
  return page.locator(`[data-table="${table}"] tbody tr`).evaluateAll((rows) =>
    rows.map((row) => [...row.querySelectorAll("th, td")].map((cell) => (cell.textContent ?? "").trim())),
  );
}

// Each test installs through the consent screen and renders several overviews: on a loaded two-core machine that
// takes longer than the suite's default minute.
test.describe.configure({ timeout: 180_000 });
// English from the browser's languages unless a test picks another locale: the figures tests read English words.
test.use({ locale: "en-US" });

test.beforeEach(async () => {
  await emulatorControl("POST", "/_emulator/reset");
});

test.afterEach(async () => {
  await emulatorControl("DELETE", "/_emulator/faults");
});

test("shows the figures of a custom period as recomputed from the emulator's orders", async ({ page }) => {
  await emulatorControl("POST", `/_emulator/stores/${STORE}/settings`, { analyticsRevenueVisible: true });
  await installThroughConsent(page, { storeIds: [STORE] });
  const now = await emulatorNow();
  const from = algiersDate(now - 13 * DAY);
  const to = algiersDate(now);

  await page.goto(OVERVIEW);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Overview");
  await page.getByLabel("From", { exact: true }).fill(from);
  await page.getByLabel("To", { exact: true }).fill(to);
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(`${OVERVIEW}?range=custom&from=${from}&to=${to}`);

  const expected = await expectedFigures(from, to);
  expect(expected.orders).toBeGreaterThan(3);
  const count = new Intl.NumberFormat("en", { maximumFractionDigits: 0 });
  const money = new Intl.NumberFormat("en", { style: "currency", currency: "DZD", minimumFractionDigits: 2 });
  await expect(tile(page, "orders").locator("[data-value]")).toHaveText(count.format(expected.orders));
  await expect(tile(page, "revenue").locator("[data-value]")).toHaveText(money.format(expected.revenue));
  await expect(tile(page, "averageOrderValue")).toHaveAttribute("data-state", "ok");

  // The orders chart: its summary and its data table, one row per day.
  const chart = page.locator('[data-chart="orders-chart"]');
  await expect(chart.locator("svg[role=img]")).toHaveAttribute("aria-label", new RegExp(`${count.format(expected.orders)} in total`));
  await chart.getByText("Orders per day as a table").click();
  const days = await chart.locator("tbody tr").evaluateAll((rows) =>
    rows.map((row) => [row.getAttribute("data-date"), row.querySelector("td")?.textContent?.trim()] as const),
  );
  expect(days).toHaveLength(14);
  for (const [date, value] of days) expect(value).toBe(count.format(expected.perDay.get(date ?? "") ?? 0));

  expect(await rowsOf(page, "top-wilayas")).toEqual(expected.topWilayas.map((row) => [row.name, count.format(row.orders)]));
  expect(await rowsOf(page, "top-products")).toEqual(expected.topProducts.map((row) => [row.name, count.format(row.quantity)]));
  // Store data reads in its own direction whatever the page's language.
  await expect(page.locator('[data-table="top-wilayas"] tbody th bdi[dir="auto"]').first()).toBeVisible();
  await expect(page.locator("[data-computed-at]")).toContainText("Computed by the platform at");
  await keepScreenshot(page, "overview-figures-desktop");
});

test("says revenue is hidden by the platform, never zero, when the token is not the owner's", async ({ page }) => {
  await installThroughConsent(page, { storeIds: [STORE] });
  await page.goto(`${OVERVIEW}?range=30d`);
  await expect(page.getByRole("link", { name: "Last 30 days" })).toHaveAttribute("aria-current", "page");
  await expect(tile(page, "orders")).toHaveAttribute("data-state", "ok");
  for (const kpi of ["revenue", "averageOrderValue"]) {
    await expect(tile(page, kpi)).toHaveAttribute("data-state", "removed");
    await expect(tile(page, kpi)).toContainText("Hidden by the platform");
    await expect(tile(page, kpi)).not.toContainText(/\d/);
  }
  await expect(page.locator('[data-chart="revenue-chart"]')).toContainText("hidden by the platform");
  await expect(page.locator("[data-notes]")).toHaveCount(0);
});

test("a cached answer shows when the platform computed it", async ({ page }) => {
  await installThroughConsent(page, { storeIds: [STORE] });
  await page.goto(`${OVERVIEW}?range=today`);
  const computed = await page.locator("[data-computed-at]").getAttribute("data-computed-at");
  expect(computed).not.toBeNull();
  await emulatorControl("POST", "/_emulator/orders", { storeId: STORE });
  await emulatorControl("POST", "/_emulator/clock/advance", { seconds: 60 });
  await page.reload();
  // Within 120 s the platform answers from its cache: the same computation time, and the new order not yet counted.
  await expect(page.locator("[data-computed-at]")).toHaveAttribute("data-computed-at", computed!);
  await emulatorControl("POST", "/_emulator/clock/advance", { seconds: 61 });
  await page.reload();
  await expect(page.locator("[data-computed-at]")).not.toHaveAttribute("data-computed-at", computed!);
});

test("checks a custom period before any call and says what is wrong", async ({ page }) => {
  await installThroughConsent(page, { storeIds: [STORE] });
  // A queued fault on analytics stays queued only if no call was made.
  const queued = await emulatorControl<{ queued: number }>("POST", "/_emulator/faults", {
    faults: [{ kind: "status", status: 500, pathPrefix: "/v1/analytics" }],
  });
  await page.goto(`${OVERVIEW}?range=custom&from=2026-03-10&to=2026-03-01`);
  await expect(page.getByLabel("To", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("From", { exact: true })).not.toHaveAttribute("aria-invalid", "true");
  for (const [query, message] of [
    ["range=custom&from=2026-03-10&to=2026-03-01", "The last day cannot be before the first day."],
    ["range=custom&from=2024-01-01&to=2025-01-01", "A custom period can be at most 365 days"],
    ["range=custom&from=2026-02-30&to=2026-03-01", "Enter the first day as a date"],
    ["range=week", "Choose one of the periods above."],
  ] as const) {
    await page.goto(`${OVERVIEW}?${query}`);
    await expect(page.locator("main").getByRole("alert")).toContainText(message);
    await expect(page.locator("[data-kpi]")).toHaveCount(0);
  }
  const after = await emulatorControl<{ queued: number }>("POST", "/_emulator/faults", {
    faults: [{ kind: "status", status: 500, pathPrefix: "/v1/nothing" }],
  });
  expect(after.queued).toBe(queued.queued + 1);
});

test("turns 429, 402 and 403 into sentences that say what to do", async ({ page }) => {
  await installThroughConsent(page, { storeIds: [STORE] });

  await emulatorControl("POST", "/_emulator/faults", { faults: [{ kind: "status", status: 429, retryAfter: 5, times: 5, pathPrefix: "/v1/analytics" }] });
  await page.goto(`${OVERVIEW}?range=7d`);
  const panel = page.locator("main").getByRole("alert");
  await expect(panel).toContainText("request limit for this store is reached");
  await expect(panel).toContainText("Wait 5 seconds, then try again.");
  await expect(panel.getByRole("link", { name: "Try again" })).toHaveAttribute("href", `${OVERVIEW}?range=7d`);
  await emulatorControl("DELETE", "/_emulator/faults");
  // The app honours Retry-After for the whole install (it holds its calls until then, on its own clock), so the
  // next check waits the 5 seconds out instead of meeting the app's own hold.
  await page.waitForTimeout(5_500);
  // A fresh platform minute: the emulator's clock only moves when tests move it, so the calls of the specs before
  // this one (the refused ones included, as on the platform) may have filled this store's per-minute budget.
  await emulatorControl("POST", "/_emulator/clock/advance", { seconds: 60 });

  await emulatorControl("POST", `/_emulator/stores/${STORE}/settings`, { monthlyQuota: 0 });
  await page.goto(`${OVERVIEW}?range=7d`);
  await expect(panel).toContainText("monthly request quota");
  await expect(panel).toContainText("Retrying will not help");
  await expect(panel.getByRole("link", { name: "Try again" })).toHaveCount(0);
  await emulatorControl("POST", `/_emulator/stores/${STORE}/settings`, { monthlyQuota: null });

  await emulatorControl("POST", "/_emulator/app/status", { status: "suspended" });
  await page.goto(`${OVERVIEW}?range=7d`);
  await expect(panel).toContainText("The platform has suspended this app");
  await emulatorControl("POST", "/_emulator/app/status", { status: "approved" });
  await page.goto(`${OVERVIEW}?range=7d`);
  await expect(tile(page, "orders")).toHaveAttribute("data-state", "ok");
});

for (const [locale, title] of Object.entries(LOCALES)) {
  for (const viewport of WIDTHS) {
    test(`overview in ${locale} at ${viewport.name} width: axe, no sideways scroll at 320 px, screenshot`, async ({ page, context }) => {
      await installThroughConsent(page, { storeIds: [STORE] });
      await context.addCookies([{ name: "NEXT_LOCALE", value: locale, url: APP_URL }]);
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      await page.goto(`${OVERVIEW}?range=30d`);
      await expect(page.locator("html")).toHaveAttribute("lang", locale);
      await expect(page.getByRole("heading", { level: 1 })).toContainText(title);
      await expect(tile(page, "orders")).toHaveAttribute("data-state", "ok");
      // Western digits in every locale, as Algerian merchants read them.
      await expect(tile(page, "orders").locator("[data-value]")).toHaveText(/^[0-9][0-9\s.,\u202f]*$/);
      await page.locator('[data-chart="orders-chart"] summary').click();
      await expectNoSeriousAxe(page);
      await keepScreenshot(page, `overview-${locale}-${viewport.name}`);
      if (viewport.name === "phone") {
        await page.setViewportSize({ width: 320, height: 800 });
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        await keepScreenshot(page, `overview-${locale}-320`);
      }
    });
  }
}

/** Encoded (gzipped on the wire) bytes of the scripts a page loads up to its load event, measured by Chromium. */
async function firstLoadScriptBytes(page: Page, url: string): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  const scripts = new Set<string>();
  const sizes = new Map<string, number>();
  cdp.on("Network.responseReceived", (event) => {
    if (event.type === "Script") scripts.add(event.requestId);
  });
  cdp.on("Network.loadingFinished", (event) => {
    sizes.set(event.requestId, event.encodedDataLength);
  });
  await page.goto(url, { waitUntil: "load" });
  await cdp.detach();
  let total = 0;
  for (const id of scripts) total += sizes.get(id) ?? 0;
  return total;
}

test("first-load JavaScript of the overview stays within 3 kB of the near-empty home page", async ({ page }) => {
  await installThroughConsent(page, { storeIds: [STORE] });
  const home = await firstLoadScriptBytes(page, "/");
  const overview = await firstLoadScriptBytes(page, `${OVERVIEW}?range=30d`);
  const orders = await firstLoadScriptBytes(page, `${OVERVIEW}/orders`);
  test.info().annotations.push({ type: "first-load-js", description: `home ${home} B, overview ${overview} B, orders ${orders} B (encoded)` });
  console.log(`first-load JS (encoded bytes): home ${home}, overview ${overview}, orders ${orders}`);
  expect(home).toBeGreaterThan(50_000);
  expect(overview - home).toBeLessThanOrEqual(3 * 1024);
  // The charts add nothing: the overview loads no more script than the plainest store page.
  expect(overview).toBeLessThanOrEqual(orders);
});
