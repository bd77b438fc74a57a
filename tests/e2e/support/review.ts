import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";

/** The WCAG 2.2 AA rules, without axe's best practices: what the merchant pages are held to everywhere. */
export const WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] as const;

/**
 * Screenshots assert nothing: they are kept for a person to look at (a right-to-left page at 320 px, say), and
 * taking them cost about an eighth of the browser tests' time on two cores. So `npm test` takes none unless
 * E2E_SCREENSHOTS=1 (docs/testing.md); a failing test keeps its own screenshot either way (playwright.config.ts).
 */
export const KEEP_SCREENSHOTS = process.env.E2E_SCREENSHOTS === "1";

/** The whole page as it stands, into the test's output folder as `<name>.png`, when screenshots are kept. */
export async function keepScreenshot(page: Page, name: string): Promise<void> {
  if (KEEP_SCREENSHOTS) await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
}

/**
 * No serious or critical axe violation on the page, each found one named by rule and element.
 *
 * axe runs in the page itself (AxeBuilder's legacy mode): the default mode opens a blank page for every analysis to
 * merge the results of cross-origin frames, which doubled the cost of the i18n spec's 18 analyses (15 s against 8.5 s
 * of its 24 s, 28 November). The app's pages have no frames, and the check says so, so a page that gains one makes
 * this choice be looked at again.
 *
 * Asked again until it holds or the expect timeout passes: pages refresh themselves (live orders, categories), and
 * in each refresh Next swaps the document's <title> as the new metadata streams in, so an analysis that lands in
 * between finds no title (document-title, seen in fr on 27 November even after waiting for a title first). A
 * violation that stays fails with the last analysis's list.
 */
export async function expectNoSeriousAxe(
  page: Page,
  options: { tags?: readonly string[]; label?: string; timeout?: number } = {},
): Promise<void> {
  expect(page.frames(), "a page with frames: axe's legacy mode does not look into cross-origin ones").toHaveLength(1);
  await expect
    .poll(async () => {
      const builder = new AxeBuilder({ page }).setLegacyMode(true);
      const results = await (options.tags ? builder.withTags([...options.tags]) : builder).analyze();
      return results.violations
        .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
        .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`);
    }, { message: options.label, timeout: options.timeout })
    .toEqual([]);
}
