import { describe, expect, it } from "vitest";
import { parsePhases } from "@/tooling/bench/test-phases";

describe("npm test's phases for the devloop bench", () => {
  it("reads each phase of a passing run's summary, not the browser tests' own lines of the same shape", () => {
    const output = [
      "━━ browser tests (Playwright, Chromium) ━━",
      "  ✓  1 [chromium] › tests/e2e/install.spec.ts:10:5 › installs (3.2s)",
      "  ✓  2 [chromium] › tests/e2e/orders.spec.ts:4:5 › lists orders (12.0s)",
      "",
      "✓ all steps passed in 412.3s (embedded PGlite, Node v22.23.3):",
      "  ✓ type-check (14.1s)",
      "  ✓ lint (15.0s)",
      "  ✓ unit and integration tests (201.7s)",
      "  ✓ production build (37.2s)",
      "  ✓ browser tests (140.9s)",
      "",
      "tests: 1100 passed, 0 failed, 0 skipped",
    ].join("\n");
    expect(parsePhases(output)).toEqual([
      { name: "type-check", passed: true, seconds: 14.1 },
      { name: "lint", passed: true, seconds: 15 },
      { name: "unit and integration tests", passed: true, seconds: 201.7 },
      { name: "production build", passed: true, seconds: 37.2 },
      { name: "browser tests", passed: true, seconds: 140.9 },
    ]);
  });

  it("reads a failed run's summary, the failed phase marked", () => {
    const output = [
      "━━ lint ━━",
      "  ✓ something inside a step (1.0s)",
      "",
      "✗ lint failed (exit 1). Steps so far:",
      "  ✓ type-check (14.1s)",
      "  ✗ lint (15.0s)",
      "",
      "tests: 0 passed, 0 failed, 0 skipped",
    ].join("\n");
    expect(parsePhases(output)).toEqual([
      { name: "type-check", passed: true, seconds: 14.1 },
      { name: "lint", passed: false, seconds: 15 },
    ]);
  });

  it("finds no phase in output without a summary (a run that was killed)", () => {
    expect(parsePhases("━━ type-check ━━\n  ✓ type-check (14.1s)\n")).toEqual([]);
  });
});
