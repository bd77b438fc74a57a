import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { readReports, totalsOf } from "@/scripts/support/test-reports";

const root = path.resolve(import.meta.dirname, "../..");

describe("npm test's closing lines", () => {
  const folders: string[] = [];
  afterAll(async () => {
    await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
  });

  it("names each failed test of a real vitest report with its first line, and a file that failed before any test", async () => {
    // Inside the project, so that the files' `import "vitest"` resolves; with no config of its own there.
    await mkdir(path.join(root, ".data"), { recursive: true });
    const folder = await mkdtemp(path.join(root, ".data", "report-"));
    folders.push(folder);
    await writeFile(
      path.join(folder, "sums.test.ts"),
      `import { describe, expect, it } from "vitest";
describe("sums", () => {
  it("adds", () => expect(1 + 1).toBe(2));
  it("breaks", () => expect(1 + 1).toBe(3));
  it.skip("waits", () => {});
});`,
    );
    await writeFile(path.join(folder, "broken.test.ts"), `throw new Error("cannot load the fixture");`);
    const report = path.join(folder, "vitest.json");
    await promisify(execFile)(
      process.execPath,
      [path.join(root, "node_modules/vitest/vitest.mjs"), "run", "--root", folder, "--reporter=json", `--outputFile=${report}`],
      { cwd: folder },
    ).catch(() => undefined); // it exits 1: two files fail

    const totals = totalsOf(JSON.parse(await readFile(report, "utf8")), undefined, folder);
    expect({ passed: totals.passed, failed: totals.failed, skipped: totals.skipped }).toEqual({ passed: 1, failed: 1, skipped: 1 });
    expect(totals.failures).toHaveLength(2);
    expect(totals.failures).toContainEqual(expect.stringMatching(/^sums\.test\.ts › sums breaks: AssertionError: expected 2 to be 3/));
    expect(totals.failures).toContainEqual(expect.stringMatching(/^broken\.test\.ts: .*cannot load the fixture/));
  }, 60_000);

  it("names a Playwright spec that failed by file, line and title, nested suites included, and counts a flaky one passed", () => {
    const totals = totalsOf(
      undefined,
      {
        stats: { expected: 3, unexpected: 1, skipped: 2, flaky: 1 },
        suites: [
          {
            file: "orders.spec.ts",
            specs: [{ title: "lists orders", line: 12, ok: true, tests: [{ results: [{}] }] }],
            suites: [
              {
                specs: [
                  {
                    title: "filters by phone",
                    line: 40,
                    ok: false,
                    tests: [{ results: [{ error: { message: "first try" } }, { error: { message: "\u001b[31mError: expect(locator).toBeVisible() failed\u001b[39m\nLocator: ..." } }] }],
                  },
                ],
              },
            ],
          },
        ],
      },
      root,
    );
    expect(totals).toEqual({
      passed: 4,
      failed: 1,
      skipped: 2,
      failures: ["orders.spec.ts:40 › filters by phone: Error: expect(locator).toBeVisible() failed"],
    });
  });

  it("reads nothing where a step did not run", async () => {
    expect(await readReports(path.join(root, ".data/none/vitest.json"), path.join(root, ".data/none/pw.json"))).toEqual({
      passed: 0,
      failed: 0,
      skipped: 0,
      failures: [],
    });
  });
});
