import { expect, test, type Page, type Route } from "@playwright/test";
import postgres from "postgres";
import { e2eDatabase } from "./support/app-env";
import { installThroughConsent } from "./support/install";
import { emulatorControl, EMULATOR_URL, SLOT } from "./support/servers";
import { keepScreenshot } from "./support/review";

/**
 * The orders pages: the list from the app's database with its URL filters and cursor pages, the detail page,
 * orders and status changes arriving by webhook on an open page, and the empty states.
 */

const STORE = 101;
const ORDERS = `/stores/${STORE}/orders`;

type EmulatorOrder = { id: number; order_number: string; customer_phone: string; status: string };

async function placeOrder(overrides: Record<string, unknown> = {}): Promise<EmulatorOrder> {
  return emulatorControl<EmulatorOrder>("POST", "/_emulator/orders", { storeId: STORE, ...overrides });
}

/** One emulated minute of the platform: its order checker sends the webhooks, its dispatcher delivers them. */
async function tick(): Promise<void> {
  await emulatorControl("POST", "/_emulator/tick");
}

function orderRows(page: Page) {
  return page.locator(".orders-table tbody tr");
}

async function orderNumbers(page: Page): Promise<string[]> {
  return orderRows(page).locator("th").allInnerTexts();
}

test.beforeEach(async () => {
  await emulatorControl("POST", "/_emulator/reset");
});

test.afterEach(async () => {
  await emulatorControl("DELETE", "/_emulator/faults");
});

test("lists orders with status and phone filters in the URL and cursor pages", async ({ page }) => {
  await installThroughConsent(page, { storeIds: [STORE] });
  // Enough orders for a second page of 50: the 40 of the fixtures came with the install, these come by webhook.
  const placed: EmulatorOrder[] = [];
  for (let index = 0; index < 12; index++) placed.push(await placeOrder());
  await tick();
  await expect(async () => {
    await page.goto(ORDERS);
    await expect(page.getByText(placed.at(-1)!.order_number)).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });

  const header = page.locator("thead th");
  await expect(header).toHaveText(["Order", "Date (GMT+1)", "Customer", "Phone", "Wilaya", "Total", "Status"]);
  await expect(orderRows(page)).toHaveCount(50);
  const firstPage = await orderNumbers(page);
  await keepScreenshot(page, "orders-desktop");

  await page.getByRole("link", { name: "Older orders" }).click();
  await expect(page).toHaveURL(/cursor=/);
  await expect(orderRows(page)).toHaveCount(2);
  const secondPage = await orderNumbers(page);
  expect(secondPage.filter((number) => firstPage.includes(number))).toEqual([]);
  await expect(page.getByText("End of the list")).toBeVisible();
  await page.getByRole("link", { name: "Newest orders" }).click();
  await expect(orderRows(page)).toHaveCount(50);

  // Status filter.
  await page.getByLabel("Status").selectOption("shipped");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/[?&]status=shipped/);
  await expect(orderRows(page).first().locator("td:last-child")).toHaveText("Shipped");
  const shippedCount = await orderRows(page).count();
  expect(shippedCount).toBeGreaterThan(0);
  for (const badge of await orderRows(page).locator("td:last-child").allInnerTexts()) expect(badge).toBe("Shipped");

  // Phone filter (exact), together with the status, then alone.
  await page.getByRole("link", { name: "Clear filters" }).first().click();
  await expect(page).not.toHaveURL(/[?&]status=/);
  await expect(orderRows(page)).toHaveCount(50);
  const phone = (await orderRows(page).first().locator("td").nth(2).innerText()).trim();
  await page.getByLabel("Customer phone").fill(phone);
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]phone=${phone}`));
  await expect(orderRows(page).first().locator("td:nth-child(4)")).toHaveText(phone);
  const phones = await orderRows(page).locator("td:nth-child(4)").allInnerTexts();
  expect(phones.length).toBeGreaterThan(0);
  for (const value of phones) expect(value.trim()).toBe(phone);
  // The same line typed the international way (+213, spaces) finds the same customer's orders.
  await page.goto(`${ORDERS}?phone=${encodeURIComponent(`+213 ${phone.slice(1, 4)} ${phone.slice(4)}`)}`);
  expect((await orderRows(page).locator("td:nth-child(4)").allInnerTexts()).map((value) => value.trim())).toEqual(phones.map((value) => value.trim()));

  await page.goto(`${ORDERS}?phone=0000000000`);
  await expect(page.getByRole("heading", { name: "No orders match these filters" })).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(ORDERS);
  await expect(orderRows(page).first()).toBeVisible();
  await keepScreenshot(page, "orders-phone");
});

test("a new order and a status change appear on an open orders page without a reload, which asks before it renders", async ({ page }) => {
  await installThroughConsent(page, { storeIds: [STORE] });
  // The page's questions (lib/orders/live.ts) and its renders: RSC requests that are not link prefetches.
  const probes: number[] = [];
  const renders: string[] = [];
  page.on("response", (response) => {
    if (new URL(response.url()).pathname === `/api/stores/${STORE}/orders/version`) probes.push(response.status());
  });
  page.on("request", (request) => {
    const headers = request.headers();
    if (headers.rsc === "1" && !headers["next-router-prefetch"] && request.url().includes(ORDERS)) renders.push(request.url());
  });
  await page.goto(ORDERS);
  await expect(orderRows(page).first()).toBeVisible();
  // The install's order import refreshes the page on its own while it runs: counted from once it is done.
  await expect(page.locator("[data-order-import]")).toHaveAttribute("data-order-import", "done", { timeout: 30_000 });
  probes.length = 0;
  renders.length = 0;
  // A marker that a reload would wipe.
  await page.evaluate(() => ((window as unknown as { stillHere: boolean }).stillHere = true));
  // Nothing has changed: the page asks, hears "no content", and is not rendered again.
  await expect.poll(() => probes.length, { timeout: 10_000 }).toBeGreaterThan(0);
  expect(probes[0]).toBe(204);
  expect(renders).toEqual([]);

  const order = await placeOrder();
  await tick();
  const newRow = orderRows(page).filter({ has: page.locator(`a[href$="/orders/${order.id}"]`) });
  await expect(newRow).toBeVisible({ timeout: 20_000 });
  await expect(newRow.locator("td:last-child")).toHaveText("Pending");

  await emulatorControl("POST", `/_emulator/orders/${order.id}/status`, { status: "confirmed" });
  await tick();
  await expect(newRow.locator("td:last-child")).toHaveText("Confirmed", { timeout: 20_000 });
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
  // The page was rendered again, and only ever after an answer other than 204.
  expect(renders.length).toBeGreaterThan(0);
  expect(renders.length).toBeLessThanOrEqual(probes.filter((status) => status !== 204).length);

  // The rows' links go through the App Router (next/link): the order opens without reloading the page.
  await newRow.getByRole("link", { name: order.order_number }).click();
  await expect(page).toHaveURL(new RegExp(`/orders/${order.id}$`));
  await expect(page.getByRole("heading", { level: 1 })).toContainText(order.order_number);
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
});

test("the store's links in view send no prefetch: a tap asks the server anyway, the phone pays nothing before it", async ({ page }) => {
  await installThroughConsent(page, { storeIds: [STORE] });
  const prefetches: string[] = [];
  page.on("request", (request) => {
    if (request.headers()["next-router-prefetch"]) prefetches.push(request.url());
  });
  await page.goto(ORDERS);
  await expect(orderRows(page).first()).toBeVisible();
  // The page's first question comes 5 s after it is ready: links in view by then (the sections, the rows) were
  // prefetched well before it when they were prefetched at all.
  const probed = page.waitForResponse((response) => new URL(response.url()).pathname === `/api/stores/${STORE}/orders/version`, { timeout: 20_000 });
  await probed;
  expect(prefetches).toEqual([]);
  // A section's link still navigates within the app, and still sends nothing ahead of the next page's own render.
  await page.getByRole("navigation", { name: "Store sections" }).getByRole("link", { name: "Categories" }).click();
  await expect(page).toHaveURL(new RegExp(`/stores/${STORE}/categories$`));
  expect(prefetches).toEqual([]);
});

test("on a slow line the page asks one question at a time, and asks again once it is answered", async ({ page }) => {
  await installThroughConsent(page, { storeIds: [STORE] });
  await page.goto(ORDERS);
  // Once the install's import is done, so that only the list's own timer runs.
  await expect(page.locator("[data-order-import]")).toHaveAttribute("data-order-import", "done", { timeout: 30_000 });
  // A line that holds every question unanswered until the test lets one through.
  const held: Route[] = [];
  await page.route(`**/api/stores/${STORE}/orders/version?*`, (route) => {
    held.push(route);
  });
  await page.clock.install();
  await page.reload();
  await expect(orderRows(page).first()).toBeVisible();

  // Three ticks of the 5 s timer: one question, still unanswered, and no second one beside it.
  await page.clock.runFor(16_000);
  await expect.poll(() => held.length).toBe(1);
  await page.clock.runFor(10_000);
  expect(held).toHaveLength(1);
  // Answered "unchanged": the next tick asks again.
  await held[0]!.fulfill({ status: 204 });
  await page.clock.runFor(5_000);
  await expect.poll(() => held.length).toBe(2);
  await held[1]!.fulfill({ status: 204 });
});

test("the order page shows items, totals, customer, address, delivery and the status history", async ({ page }) => {
  await installThroughConsent(page, { storeIds: [STORE] });
  const order = await placeOrder({ customer_notes: "اتصل قبل التوصيل من فضلك", promo_code: "AID2026" });
  await tick();
  await expect(async () => {
    await page.goto(ORDERS);
    await expect(page.getByRole("link", { name: order.order_number })).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await page.getByRole("link", { name: order.order_number }).click();
  await expect(page).toHaveURL(`/stores/${STORE}/orders/${order.id}`);

  await expect(page.getByRole("heading", { level: 1, name: order.order_number })).toBeVisible();
  for (const title of ["Items", "Totals", "Status history", "Customer", "Address", "Delivery"]) {
    await expect(page.getByRole("heading", { level: 2, name: title })).toBeVisible();
  }
  const items = page.getByRole("region", { name: "Items" });
  await expect(items.locator("tbody tr").first()).toBeVisible();
  const totals = page.getByRole("region", { name: "Totals" });
  for (const label of ["Subtotal", "Shipping", "Discount", "Promo code", "Total"]) await expect(totals.getByText(label, { exact: true })).toBeVisible();
  await expect(totals).toContainText("AID2026");
  await expect(totals).toContainText("DZD");
  const address = page.getByRole("region", { name: "Address" });
  await expect(address.getByText("اتصل قبل التوصيل من فضلك")).toHaveAttribute("dir", "auto");
  await expect(page.getByRole("region", { name: "Customer" })).toContainText(order.customer_phone);

  // Shipped: the platform adds a tracking number and courier; the open page shows them and the history.
  await emulatorControl("POST", `/_emulator/orders/${order.id}/status`, { status: "shipped" });
  await tick();
  const history = page.getByRole("region", { name: "Status history" });
  await expect(history.getByRole("listitem").filter({ hasText: "Shipped" })).toBeVisible({ timeout: 20_000 });
  await expect(history).toContainText("from Pending");
  await expect(page.getByRole("region", { name: "Delivery" })).not.toContainText(/Tracking number\s*—/);
  await keepScreenshot(page, "order-detail-desktop");
  await page.setViewportSize({ width: 390, height: 844 });
  await keepScreenshot(page, "order-detail-phone");

  await page.goto(`/stores/${STORE}/orders/999999999`);
  await expect(page.getByRole("heading", { name: "This order is not in this store" })).toBeVisible();
  await page.getByRole("link", { name: "Back to the orders" }).click();
  await expect(page).toHaveURL(`/stores/${STORE}/orders`);
});

test("a store without orders points to placing a test order in the emulator's dashboard", async ({ page }) => {
  // Store 301 (the developer's sandbox) installed while its order backfill fails, so the app has none of its orders.
  await emulatorControl("POST", "/_emulator/faults", {
    faults: [{ kind: "status", status: 503, method: "GET", pathPrefix: "/v1/orders", times: 20 }],
  });
  // The faults stay queued until afterEach: the backfill runs after the callback answered, and retries.
  await installThroughConsent(page, { storeIds: [301], merchant: "Dev Studio" });
  await page.goto("/stores/301/orders");
  await expect(page.getByRole("heading", { name: "No orders yet" })).toBeVisible();
  await expect(page.getByRole("link", { name: "dashboard" })).toHaveAttribute("href", `${EMULATOR_URL}/dashboard`);
  await keepScreenshot(page, "orders-empty");
});

test("the list's own read runs beside the session lookup, not after it", async ({ page }) => {
  const database = e2eDatabase(SLOT);
  test.skip(!("DATABASE_URL" in database), "needs the PostgreSQL server: PGlite runs one statement at a time");
  if (!("DATABASE_URL" in database)) return;
  await installThroughConsent(page, { storeIds: [STORE] });
  // This worker's app has a database of its own (scripts/test.ts makes one per slot), so the lock below holds up
  // no other worker's pages.
  const sql = postgres(database.DATABASE_URL, { max: 2, onnotice: () => {} });
  try {
    let answered: Promise<number | undefined> | undefined;
    const overlap = await sql.begin(async (tx) => {
      // The session lookup reads order_backfills (the shell's import progress): locked, every session lookup waits.
      await tx`lock table order_backfills in access exclusive mode`;
      const [{ at } = { at: new Date(0) }] = await tx<{ at: Date }[]>`select clock_timestamp() as at`;
      answered = page.goto(`${ORDERS}?status=shipped`).then((response) => response?.status());
      const seen = { waitingSession: false, ordersRead: false };
      const deadline = Date.now() + 15_000;
      while (Date.now() < deadline && !(seen.waitingSession && seen.ordersRead)) {
        const backends = await sql<{ query: string; wait: string | null; started: Date | null }[]>`
          select query, wait_event_type as wait, query_start as started from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid()`;
        seen.waitingSession ||= backends.some((backend) => backend.wait === "Lock" && backend.query.includes('from "sessions"'));
        // The list's statement, sent after the lock was taken: with the session lookup held, only a read started
        // beside it can have run.
        seen.ordersRead ||= backends.some((backend) => backend.query.includes('"created_at_micros" from "orders"') && backend.started !== null && backend.started >= at);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return seen;
    });
    expect(overlap).toEqual({ waitingSession: true, ordersRead: true });
    // Released, the guard answers and the page is the list, as any other.
    expect(await answered).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  } finally {
    await sql.end();
  }
});
