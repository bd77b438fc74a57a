import { expect, test } from "@playwright/test";
import { expectNoSeriousAxe, WCAG_AA } from "./support/review";

/**
 * The axe check every page spec leans on (tests/e2e/support/review.ts) still finds what it is there to find: it runs
 * axe in the page (legacy mode) and asks again while a finding lasts, and neither may turn a real finding into a pass.
 * Each verdict here is an analysis's, not a timer's: a loaded machine makes them slower, never different.
 */

test("the axe check fails on a serious finding that stays, naming the rule and the element", async ({ page }) => {
  await page.setContent(`<!doctype html><html lang="en"><head><title>Check</title></head><body><main><img id="photo" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></main></body></html>`);
  const seen: string[][] = [];
  // Nothing to wait for beyond the one second analysis the check always makes: the finding that stays is the verdict.
  await expect(expectNoSeriousAxe(page, { tags: WCAG_AA, timeout: 0, onFindings: (found) => void seen.push(found) })).rejects.toThrow(
    /image-alt: #photo/,
  );
  expect(seen, "asked again once before failing").toEqual([["image-alt: #photo"]]);
});

test("the axe check waits out a finding that goes away (a title that comes late), and refuses a page with frames", async ({ page }) => {
  await page.setContent(`<!doctype html><html lang="en"><head></head><body><main><p>Text</p></main></body></html>`);
  const seen: string[][] = [];
  // The title comes once an analysis has found it missing, as it does when a refresh's metadata streams in.
  await expectNoSeriousAxe(page, {
    tags: WCAG_AA,
    onFindings: async (found) => {
      seen.push(found);
      await page.evaluate(() => (document.title = "Check"));
    },
  });
  expect(seen, "the first analysis, before the title, failed and was asked again").toEqual([[expect.stringMatching(/^document-title: /)]]);
  await page.setContent(`<!doctype html><html lang="en"><head><title>Framed</title></head><body><main><iframe title="inner" srcdoc="<p>in</p>"></iframe></main></body></html>`);
  await expect(expectNoSeriousAxe(page, { tags: WCAG_AA })).rejects.toThrow(/frames/);
});
