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
 * Asked again while a finding lasts: pages refresh themselves (live orders, categories), and in each refresh Next
 * swaps the document's <title> as the new metadata streams in, so an analysis that lands in between finds no title
 * (document-title, seen in fr on 27 November even after waiting for a title first). The verdict is always a whole
 * analysis's: a finding is asked again at least once however long the analysis took, and again until `timeout`
 * (the expect timeout of playwright.config.ts unless given) has passed, and then the last analysis's list is the
 * failure. A timer never cuts an analysis short, so a slow machine asks fewer times but never fails on the clock.
 */
export async function expectNoSeriousAxe(
  page: Page,
  options: {
    tags?: readonly string[];
    label?: string;
    timeout?: number;
    /** Told of each analysis that found something, before it is asked again (the check's own test). */
    onFindings?: (findings: string[]) => Promise<void> | void;
  } = {},
): Promise<void> {
  expect(page.frames(), "a page with frames: axe's legacy mode does not look into cross-origin ones").toHaveLength(1);
  const askFor = options.timeout ?? EXPECT_TIMEOUT_MS;
  const started = Date.now();
  let findings = await seriousFindings(page, options.tags);
  for (let asked = 1; findings.length > 0 && (asked < 2 || Date.now() - started < askFor); asked++) {
    await options.onFindings?.(findings);
    await new Promise((resolve) => setTimeout(resolve, PAUSES_MS[Math.min(asked, PAUSES_MS.length) - 1]));
    findings = await seriousFindings(page, options.tags);
  }
  expect(findings, options.label).toEqual([]);
}

/** playwright.config.ts `expect.timeout`. */
const EXPECT_TIMEOUT_MS = 10_000;
/** Between two analyses of a page with a finding: a title swap is over within a frame or two. */
const PAUSES_MS = [100, 250, 500, 1_000];

async function seriousFindings(page: Page, tags: readonly string[] | undefined): Promise<string[]> {
  const builder = new AxeBuilder({ page }).setLegacyMode(true);
  const results = await (tags ? builder.withTags([...tags]) : builder).analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`);
}
