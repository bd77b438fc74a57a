import { describe, expect, it } from "vitest";
import { FIGURES_END, sectionSlug, spliceSection } from "@/bench/docs-sections";

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
});
