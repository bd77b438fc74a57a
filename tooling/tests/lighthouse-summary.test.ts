import { describe, expect, it } from "vitest";
import { summarize, type Run } from "@/tooling/bench/lighthouse";

const run = (over: Partial<Run>): Run => ({
  score: 80, lcp: 2000, tbt: 300, cls: 0, ttfb: 40, scriptMs: 900, layoutMs: 300, mainThreadMs: 2500,
  blockingCss: 0, topScript: "none", lcpBreakdown: "none", ...over,
});

describe("the Lighthouse bench's medians", () => {
  it("takes each metric's own median, not one run's figures, and the worst count of blocking stylesheets", () => {
    const summary = summarize([
      run({ tbt: 900, lcp: 1500, scriptMs: 700, topScript: "slow", blockingCss: 1 }),
      run({ tbt: 200, lcp: 2500, scriptMs: 1100, topScript: "fast" }),
      run({ tbt: 400, lcp: 2100, scriptMs: 900, topScript: "middle" }),
    ]);
    expect(summary).toMatchObject({ tbt: 400, lcp: 2100, scriptMs: 900, blockingCss: 1 });
    // The script named is the median-TBT run's, the run whose TBT the page is judged by.
    expect(summary.topScript).toBe("middle");
  });
});
