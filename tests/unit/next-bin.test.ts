import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { nextBin } from "@/scripts/support/next-bin";

describe("nextBin", () => {
  it("is the installed next's own command, which names the version the project pins", () => {
    const pinned = (JSON.parse(readFileSync("package.json", "utf8")) as { dependencies: Record<string, string> }).dependencies.next;
    const printed = execFileSync(process.execPath, [nextBin(), "--version"], { encoding: "utf8", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
    expect(printed).toContain(`Next.js v${pinned}`);
  });
});
