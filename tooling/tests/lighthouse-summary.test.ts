import { describe, expect, it } from "vitest";
import { summarize, type Run } from "@/tooling/bench/lighthouse";

const run = (over: Partial<Run>): Run => ({
  score: 80, lcp: 2000, tbt: 300, cls: 0, ttfb: 40, scriptMs: 900, scriptThreadMs: 90, layoutMs: 300, mainThreadMs: 2500,
  blockingCss: 0, topScript: "none", lcpBreakdown: "none", observedLcp: 600, busyBeforeLcpMs: 300, ...over,
});

describe("the Lighthouse bench's medians", () => {
  it("takes each metric's own median, not one run's figures, and the worst count of blocking stylesheets", () => {
    const summary = summarize([
      run({ tbt: 900, lcp: 1500, scriptMs: 700, scriptThreadMs: 120, topScript: "slow", blockingCss: 1, observedLcp: 500, busyBeforeLcpMs: 420 }),
      run({ tbt: 200, lcp: 2500, scriptMs: 1100, scriptThreadMs: 70, topScript: "fast", observedLcp: 700, busyBeforeLcpMs: 180 }),
      run({ tbt: 400, lcp: 2100, scriptMs: 900, scriptThreadMs: 80, topScript: "middle", observedLcp: 650, busyBeforeLcpMs: 260 }),
    ]);
    expect(summary).toMatchObject({ tbt: 400, lcp: 2100, scriptMs: 900, scriptThreadMs: 80, blockingCss: 1, observedLcp: 650, busyBeforeLcpMs: 260 });
    // The script named is the median-TBT run's, the run whose TBT the page is judged by.
    expect(summary.topScript).toBe("middle");
  });
});
