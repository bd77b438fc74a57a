import { describe, expect, it } from "vitest";
import { runLanes, Screen } from "@/scripts/support/lanes";

function recorder() {
  let text = "";
  return { out: { write: (chunk: string | Buffer) => (text += chunk.toString()) }, text: () => text };
}

const node = (script: string) => ({ command: process.execPath, args: ["-e", script] });
const say = (lines: string[], delayMs: number) =>
  node(`(async () => { for (const line of ${JSON.stringify(lines)}) { console.log(line); await new Promise((r) => setTimeout(r, ${delayMs})); } })()`);

describe("runLanes", () => {
  it("prints one step live, a held step whole when it ends, and hands the screen to a held step still running", async () => {
    const screen = recorder();
    const results = await runLanes(
      [
        [{ name: "live", ...say(["live 1", "live 2", "live 3"], 300) }],
        [
          { name: "quick", ...say(["quick 1"], 0) },
          { name: "long", ...say(["long 1", "long 2", "long 3", "long 4", "long 5", "long 6"], 250) },
        ],
      ],
      new Screen(screen.out),
    );
    expect(results.map(({ name, code }) => ({ name, code }))).toEqual([
      { name: "live", code: 0 },
      { name: "quick", code: 0 },
      { name: "long", code: 0 },
    ]);
    const text = screen.text();
    // Each step's lines form one block under its own header, whatever their timing.
    expect(text).toMatch(/━━ quick: its output ━━\nquick 1\n/);
    expect(text).toMatch(/━━ long \(its output so far, then as it comes\) ━━\n(long \d\n)+$/);
    expect(text.indexOf("live 3")).toBeLessThan(text.indexOf("━━ long"));
    const longBlock = text.slice(text.indexOf("━━ long"));
    expect(longBlock.match(/long \d/g)).toEqual(["long 1", "long 2", "long 3", "long 4", "long 5", "long 6"]);
    expect(text.match(/live \d/g)).toEqual(["live 1", "live 2", "live 3"]);
  });

  it("shows no block for a held step that printed nothing, and names a silent step handed the screen only when it prints", async () => {
    const screen = recorder();
    await runLanes(
      [
        [{ name: "live", ...say(["live 1", "live 2"], 300) }],
        [{ name: "silent", ...node("") }],
        [{ name: "late", ...node("setTimeout(() => console.log('late 1'), 1500)") }],
      ],
      new Screen(screen.out),
    );
    const text = screen.text();
    expect(text).not.toContain("silent");
    expect(text).toMatch(/━━ late \(its output so far, then as it comes\) ━━\nlate 1\n$/);
  });

  it("stops a lane at its first failure and lets the other lane finish", async () => {
    const screen = recorder();
    const results = await runLanes(
      [
        [{ name: "fails", ...node("process.exit(3)") }, { name: "never", ...node("console.log('ran')") }],
        [{ name: "other", ...say(["other 1"], 100) }],
      ],
      new Screen(screen.out),
    );
    expect(results.map(({ name, code }) => ({ name, code }))).toEqual([
      { name: "fails", code: 3 },
      { name: "other", code: 0 },
    ]);
    expect(screen.text()).not.toContain("ran");
    expect(screen.text()).toContain("other 1");
  });

  it("hands back the last 40 lines of a failed step, what it wrote to stderr included, and none of a passing one", async () => {
    const screen = recorder();
    const results = await runLanes(
      [
        [{ name: "live", ...say(["live 1"], 200) }],
        [{ name: "long and failing", ...node("for (let i = 1; i <= 300; i++) console.log('line ' + i + ' ' + 'x'.repeat(100)); process.exitCode = 1") }],
        // Its two pipes are read apart, so only a step that writes to one of them has an order to keep.
        [{ name: "failing on stderr", ...node("console.error('the reason it failed'); process.exitCode = 2") }],
      ],
      new Screen(screen.out),
    );
    const byName = (name: string) => results.find((result) => result.name === name);
    const lines = byName("long and failing")?.lastLines?.split("\n") ?? [];
    expect(lines).toHaveLength(40);
    expect(lines[0]).toMatch(/^line 261 x+$/);
    expect(lines.at(-1)).toMatch(/^line 300 x+$/);
    expect(byName("failing on stderr")).toMatchObject({ code: 2, lastLines: "the reason it failed" });
    expect(byName("live")?.lastLines).toBeUndefined();
  });

  it("adds what a step's preparation returns to its environment, and cleans up after it", async () => {
    const screen = recorder();
    let cleaned = false;
    await runLanes(
      [
        [
          {
            name: "prepared",
            ...node("console.log('value=' + process.env.PREPARED_VALUE)"),
            prepare: async () => ({ env: { PREPARED_VALUE: "42" }, cleanup: async () => void (cleaned = true) }),
          },
        ],
      ],
      new Screen(screen.out),
    );
    expect(screen.text()).toContain("value=42");
    expect(cleaned).toBe(true);
  });
});
