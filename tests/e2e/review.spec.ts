import { expect, test } from "@playwright/test";
import { expectNoSeriousAxe, WCAG_AA } from "./support/review";

/**
 * The axe check every page spec leans on (tests/e2e/support/review.ts) still finds what it is there to find: it runs
 * axe in the page (legacy mode) and asks again while a finding lasts, and neither may turn a real finding into a pass.
 */

test("the axe check fails on a serious finding that stays, naming the rule and the element", async ({ page }) => {
  await page.setContent(`<!doctype html><html lang="en"><head><title>Check</title></head><body><main><img id="photo" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></main></body></html>`);
  await expect(expectNoSeriousAxe(page, { tags: WCAG_AA, timeout: 1_500 })).rejects.toThrow(/image-alt: #photo/);
});

test("the axe check waits out a finding that goes away (a title that comes late), and refuses a page with frames", async ({ page }) => {
  await page.setContent(`<!doctype html><html lang="en"><head></head><body><main><p>Text</p></main></body></html>`);
  // The title comes a moment later, as it does when a refresh's metadata streams in.
  await page.evaluate(() => setTimeout(() => (document.title = "Check"), 800));
  const started = Date.now();
  await expectNoSeriousAxe(page, { tags: WCAG_AA });
  expect(Date.now() - started, "the first analysis, before the title, failed and was asked again").toBeGreaterThanOrEqual(800);
  await page.setContent(`<!doctype html><html lang="en"><head><title>Framed</title></head><body><main><iframe title="inner" srcdoc="<p>in</p>"></iframe></main></body></html>`);
  await expect(expectNoSeriousAxe(page, { tags: WCAG_AA, timeout: 1_500 })).rejects.toThrow(/frames/);
});
