import { expect, test, type Page } from "@playwright/test";
import ar from "../../messages/ar.json" with { type: "json" };
import en from "../../messages/en.json" with { type: "json" };
import fr from "../../messages/fr.json" with { type: "json" };
import { storeHref } from "../../lib/sections";
import { installThroughConsent } from "./support/install";
import { APP_URL, emulatorControl } from "./support/servers";
import { expectNoSeriousAxe, keepScreenshot } from "./support/review";

/**
 * The customers page against the emulator: the platform's customers newest first, each with their orders,
 * delivered and returned parcels counted from the app's own orders (imported at install), the phone filter however
 * the number is typed, the link to their orders, the empty and error states, and every locale at 320 and 390 px
 * with axe. (Written by npm run new:section -- customers --scope customers:read, then made the page's own.)
 */

const STORE = 101;
const CUSTOMERS = storeHref(STORE, "customers");
const LOCALES = { ar: { dir: "rtl", messages: ar }, fr: { dir: "ltr", messages: fr }, en: { dir: "ltr", messages: en } } as const;

type EmulatorCustomer = { id: number; name: string; phone: string; createdAt: string };
type EmulatorOrder = { customer_phone: string; status: string };

async function emulatorCustomers(): Promise<EmulatorCustomer[]> {
  const { customers } = await emulatorControl<{ customers: EmulatorCustomer[] }>("GET", `/_emulator/stores/${STORE}/customers`);
  return customers.sort((left, right) => Date.parse(right.createdAt) - Date.parse(left.createdAt) || right.id - left.id);
}

async function emulatorOrders(): Promise<EmulatorOrder[]> {
  return (await emulatorControl<{ orders: EmulatorOrder[] }>("GET", `/_emulator/stores/${STORE}/orders`)).orders;
}

function cards(page: Page) {
  return page.locator('[data-list="customers"] > li');
}

async function countsOf(page: Page, customerId: number) {
  const card = page.locator(`[data-customer-id="${customerId}"]`);
  const read = async (kind: string) => Number(await card.locator(`[data-count="${kind}"] dd`).innerText());
  return { orders: await read("orders"), delivered: await read("delivered"), returned: await read("returned") };
}

/** The page once the install's import of the store's orders has landed: every fixture order counted on a card. */
async function openWhenImported(page: Page, total: number): Promise<void> {
  await expect(async () => {
    await page.goto(CUSTOMERS);
    const counts = await page.locator('[data-count="orders"] dd').allInnerTexts();
    expect(counts.reduce((sum, text) => sum + Number(text), 0)).toBe(total);
  }).toPass({ timeout: 30_000 });
}

test.describe.configure({ timeout: 180_000 });
test.use({ locale: "en-US" });

test.beforeEach(async () => {
  await emulatorControl("POST", "/_emulator/reset");
});

test.afterEach(async () => {
  await emulatorControl("DELETE", "/_emulator/faults");
});

test("lists the store's customers newest first, each with their orders, delivered and returned parcels, and a link to their orders", async ({ page }) => {
  await installThroughConsent(page, { storeIds: [STORE] });
  const customers = await emulatorCustomers();
  const orders = await emulatorOrders();
  await openWhenImported(page, orders.length);

  await expect(cards(page)).toHaveCount(customers.length);
  expect(await cards(page).evaluateAll((items) => items.map((item) => Number(item.getAttribute("data-customer-id"))))).toEqual(customers.map((customer) => customer.id));
  for (const customer of customers) {
    const theirs = orders.filter((order) => order.customer_phone === customer.phone);
    expect(await countsOf(page, customer.id), customer.name).toEqual({
      orders: theirs.length,
      delivered: theirs.filter((order) => order.status === "delivered").length,
      returned: theirs.filter((order) => order.status === "returned").length,
    });
  }

  // The customer with the most orders: their link opens the orders page filtered by their phone.
  const busiest = [...customers].sort((a, b) => orders.filter((o) => o.customer_phone === b.phone).length - orders.filter((o) => o.customer_phone === a.phone).length)[0]!;
  const expected = orders.filter((order) => order.customer_phone === busiest.phone).length;
  expect(expected).toBeGreaterThan(0);
  await page.locator(`[data-customer-id="${busiest.id}"]`).getByRole("link", { name: `See their orders: ${busiest.name}` }).click();
  await expect(page).toHaveURL(`${storeHref(STORE, "orders", { phone: busiest.phone })}`);
  await expect(page.locator(".orders-table tbody tr")).toHaveCount(expected);
});

test("finds a customer by phone however it is typed, says when none matches, and clears the filter", async ({ page }) => {
  await installThroughConsent(page, { storeIds: [STORE] });
  const customers = await emulatorCustomers();
  const wanted = customers[3]!;
  await page.goto(CUSTOMERS);

  // 0550123456 typed as +213 550 12 34 56: the same number.
  const international = `+213 ${wanted.phone.slice(1, 4)} ${wanted.phone.slice(4, 6)} ${wanted.phone.slice(6, 8)} ${wanted.phone.slice(8)}`;
  await page.getByLabel("Phone number").fill(international);
  await page.getByRole("button", { name: "Find" }).click();
  await expect(page).toHaveURL(/[?&]phone=/);
  await expect(cards(page)).toHaveCount(1);
  await expect(cards(page).first()).toHaveAttribute("data-customer-id", String(wanted.id));
  await expect(cards(page).first().getByRole("heading", { level: 2 })).toHaveText(wanted.name);

  await page.getByLabel("Phone number").fill("0999 99 99 99");
  await page.getByRole("button", { name: "Find" }).click();
  await expect(page.getByRole("heading", { level: 2, name: "No customer with this phone number" })).toBeVisible();
  await page.locator("main").getByRole("link", { name: "Show all customers" }).last().click();
  await expect(page).toHaveURL(CUSTOMERS);
  await expect(cards(page)).toHaveCount(customers.length);
});

test("explains a platform failure with Try again, and shows the list once the platform answers", async ({ page }) => {
  await installThroughConsent(page, { storeIds: [STORE] });
  await emulatorControl("POST", "/_emulator/faults", { faults: [{ kind: "status", status: 500, times: 10, pathPrefix: "/v1/customers" }] });
  await page.goto(CUSTOMERS);
  const panel = page.locator("main").getByRole("alert");
  await expect(panel).toContainText("The customers could not be loaded");
  await emulatorControl("DELETE", "/_emulator/faults");
  await panel.getByRole("link", { name: "Try again" }).click();
  await expect(cards(page).first()).toBeVisible();
});

for (const [locale, { dir, messages }] of Object.entries(LOCALES)) {
  test(`customers in ${locale} at 390 and 320 px: title, direction, no sideways scroll, axe at 0 serious`, async ({ page, context }) => {
    await installThroughConsent(page, { storeIds: [STORE] });
    await context.addCookies([{ name: "NEXT_LOCALE", value: locale, url: APP_URL }]);
    for (const width of [390, 320]) {
      await page.setViewportSize({ width, height: 844 });
      const response = await page.goto(CUSTOMERS);
      expect(response?.status()).toBe(200);
      await expect(page.locator("html")).toHaveAttribute("lang", locale);
      await expect(page.locator("html")).toHaveAttribute("dir", dir);
      await expect(page.getByRole("heading", { level: 1 })).toContainText(messages.Customers.title);
      await expect(cards(page).first()).toBeVisible();
      await expect(cards(page).first().locator('[data-count="returned"] dt')).toHaveText(messages.Customers.returned);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${width} px`).toBeLessThanOrEqual(0);
      await expectNoSeriousAxe(page);
      await keepScreenshot(page, `customers-${locale}-${width}`);
    }
  });
}
