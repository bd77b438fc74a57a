import { expect, type Page, type Request } from "@playwright/test";

/** Each tracked page's requests still without an answer (request events: every frame's, fetches and documents alike). */
const inFlight = new WeakMap<Page, Set<Request>>();

/** From here on, settle(page) knows which of the page's requests are unanswered. */
export function trackRequests(page: Page): void {
  const pending = new Set<Request>();
  inFlight.set(page, pending);
  page.on("request", (request) => pending.add(request));
  page.on("requestfinished", (request) => pending.delete(request));
  page.on("requestfailed", (request) => pending.delete(request));
}

/**
 * The page loaded and every request it started answered, so what it loads after its load event has run. Judged by
 * the page's own request events rather than Playwright's "networkidle": on CI's PostgreSQL leg a signed-out page
 * twice never reached networkidle with no request of the page unanswered. A page that keeps a request unanswered
 * fails here, naming it.
 */
export async function settle(page: Page): Promise<void> {
  const pending = inFlight.get(page);
  if (!pending) throw new Error("settle(page) needs trackRequests(page) first");
  await page.waitForLoadState("load");
  await expect
    .poll(() => [...pending].map((request) => `${request.method()} ${request.url()}`), { message: `${page.url()}: requests still unanswered`, timeout: 30_000 })
    .toEqual([]);
}
