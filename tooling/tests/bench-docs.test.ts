import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import { docLines, FIGURES_END, sectionSlug, spliceSection } from "@/tooling/bench/docs-sections";

describe("bench figures in docs/benchmarks.md", () => {
  const doc = [
    "# Benchmarks",
    "<!-- bench:orders-page:start -->",
    "old orders",
    "<!-- bench:orders-page:end -->",
    "<!-- bench:scale:start -->",
    "old scale",
    "<!-- bench:scale:end -->",
    FIGURES_END,
    "## How",
  ].join("\n");

  it("names a part's section from its name", () => {
    expect(sectionSlug("first-load JavaScript")).toBe("first-load-javascript");
    expect(sectionSlug("phone pages (Lighthouse)")).toBe("phone-pages-lighthouse");
  });

  it("replaces only the section of the part that ran", () => {
    const out = spliceSection(doc, "scale", "new scale");
    expect(out).toContain("<!-- bench:scale:start -->\nnew scale\n<!-- bench:scale:end -->");
    expect(out).not.toContain("old scale");
    expect(out).toContain("old orders");
    expect(out.endsWith(`${FIGURES_END}\n## How`)).toBe(true);
  });

  it("adds a part never written before the end of the figures, not after the prose", () => {
    const out = spliceSection(doc, "dev-start", "dev figures");
    expect(out.indexOf("dev figures")).toBeGreaterThan(out.indexOf("old scale"));
    expect(out.indexOf("dev figures")).toBeLessThan(out.indexOf(FIGURES_END));
    expect(spliceSection(out, "dev-start", "again").match(/bench:dev-start:start/g)).toHaveLength(1);
  });

  it("puts a part's summary on the page, else its verdict lines, else its first two lines", () => {
    expect(docLines({ lines: ["a", "b"], summary: ["brief"] })).toEqual(["brief"]);
    expect(docLines({ lines: ["setup", "p99 1.02x (target ≤ 1.5x, met)", "detail", "largest page +2.9 kB (budget: 3 kB)"] })).toEqual([
      "p99 1.02x (target ≤ 1.5x, met)",
      "largest page +2.9 kB (budget: 3 kB)",
    ]);
    expect(docLines({ lines: ["one", "two", "three"] })).toEqual(["one", "two"]);
  });

  it("finds every part's section in the page, once, before the end of the figures", () => {
    const page = readFileSync(path.resolve(import.meta.dirname, "../../docs/benchmarks.md"), "utf8");
    const parts = ["API client pacing", "webhook receiver", "orders page", "first-load JavaScript", "dev start", "phone pages (Lighthouse)", "scale", "order polling jobs", "order polling wave", "idle app", "devloop"];
    for (const part of parts) {
      const slug = sectionSlug(part);
      expect(page.split(`<!-- bench:${slug}:start -->`), slug).toHaveLength(2);
      expect(page.indexOf(`<!-- bench:${slug}:end -->`), slug).toBeLessThan(page.indexOf(FIGURES_END));
    }
    // A run rewrites its section in place and leaves the rest of the page as it was.
    const rewritten = spliceSection(page, "scale", "### Scale\n\n- new figure");
    expect(rewritten).toContain("- new figure");
    expect(rewritten.replace(/<!-- bench:scale:start -->[\s\S]*<!-- bench:scale:end -->/, "")).toBe(page.replace(/<!-- bench:scale:start -->[\s\S]*<!-- bench:scale:end -->/, ""));
  });
});
