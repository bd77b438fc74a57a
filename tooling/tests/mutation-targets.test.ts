import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { plan, runEnvironment } from "@/tooling/scripts/mutation";
import { MUTATION_GROUPS, selectGroups } from "@/tooling/scripts/mutation-targets";
import { mergeReports, scoreFiles, type Report } from "@/tooling/scripts/support/mutation-report";

const root = path.resolve(import.meta.dirname, "../..");

async function configuredMutate(): Promise<string[]> {
  // A .mjs module without types: imported by URL so that the type checker does not ask for a declaration.
  const url = pathToFileURL(path.join(root, "tooling/stryker.config.mjs")).href;
  const { default: config } = (await import(/* @vite-ignore */ url)) as { default: { mutate: string[] } };
  return config.mutate;
}

describe("the map of mutated files to their tests (tooling/scripts/mutation-targets.ts)", () => {
  it("puts every file of tooling/stryker.config.mjs's mutate in exactly one group", async () => {
    const mutate = await configuredMutate();
    expect(mutate.length).toBeGreaterThan(0);
    for (const file of mutate) {
      expect(MUTATION_GROUPS.filter((group) => group.mutate.includes(file)).map((group) => group.name), file).toHaveLength(1);
    }
  });

  it("mutates only files of tooling/stryker.config.mjs's mutate", async () => {
    const mutate = await configuredMutate();
    expect(MUTATION_GROUPS.flatMap((group) => group.mutate).filter((file) => !mutate.includes(file))).toEqual([]);
  });

  it("gives every group tests, and names only test files that exist", () => {
    for (const group of MUTATION_GROUPS) {
      expect(group.testFiles.length, group.name).toBeGreaterThan(0);
      for (const file of [...group.mutate, ...group.testFiles]) expect(existsSync(path.join(root, file)), file).toBe(true);
    }
  });

  it("names each group once, as a folder name", () => {
    const names = MUTATION_GROUPS.map((group) => group.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-z0-9-]+$/);
  });

  it("runs the groups holding the files given with --mutate, and returns the files no group holds", () => {
    const groups = [
      { name: "a", mutate: ["lib/a.ts", "lib/b.ts"], testFiles: ["tests/a.test.ts"] },
      { name: "c", mutate: ["lib/c.ts"], testFiles: ["tests/c.test.ts"] },
    ];
    expect(selectGroups([], groups)).toEqual({ groups, unmapped: [] });
    expect(selectGroups(["lib/b.ts:3-9", "lib/x.ts"], groups)).toEqual({ groups: [groups[0]], unmapped: ["lib/x.ts"] });
  });
});

describe("each group's own configuration (tooling/scripts/mutation.ts, tooling/stryker.config.mjs, tooling/vitest.mutation.config.ts)", () => {
  const signature = MUTATION_GROUPS.find((group) => group.name === "webhook-signature")!;

  it("narrows a group's tests through the environment, never with Stryker's --testFiles (stryker-js#6144)", () => {
    const runs = plan(["--mutate", "lib/webhooks/signature.ts", "--force"]);
    expect(runs).toEqual([
      { name: "webhook-signature", files: ["lib/webhooks/signature.ts"], testFiles: signature.testFiles, args: ["--mutate", "lib/webhooks/signature.ts", "--force"] },
    ]);
    const environment = runEnvironment(runs[0]!, "reports/mutation/webhook-signature", { PATH: "/bin", MUTATION_TEST_FILES: "stale.test.ts" });
    expect(environment).toEqual({
      PATH: "/bin",
      MUTATION_REPORT_DIR: "reports/mutation/webhook-signature",
      MUTATION_TEST_FILES: signature.testFiles.join(","),
    });
    for (const run of plan([])) expect(run.args).not.toContain("--testFiles");
  });

  it("takes --testFiles as the run's tests, and leaves a file no group holds to every related test", () => {
    const [mapped, unmapped] = plan(["--mutate", "lib/webhooks/signature.ts,lib/nowhere.ts", "--testFiles", "tests/unit/one.test.ts"]);
    expect(mapped).toMatchObject({ testFiles: ["tests/unit/one.test.ts"], args: ["--mutate", "lib/webhooks/signature.ts"] });
    expect(unmapped).toMatchObject({ name: "unmapped", testFiles: ["tests/unit/one.test.ts"] });
    const [alone] = plan(["--mutate", "lib/nowhere.ts"]);
    expect(alone?.testFiles).toBeUndefined();
    expect(runEnvironment(alone!, "reports/mutation/unmapped", { MUTATION_TEST_FILES: "stale.test.ts" })).toEqual({
      MUTATION_REPORT_DIR: "reports/mutation/unmapped",
    });
  });

  it("reads the group's tests for vitest's include from MUTATION_TEST_FILES", async () => {
    const { mutationTestFiles } = await import("@/tooling/vitest.mutation.config");
    expect(mutationTestFiles(" tests/unit/a.test.ts,,tests/integration/b.test.ts ")).toEqual(["tests/unit/a.test.ts", "tests/integration/b.test.ts"]);
    expect(mutationTestFiles(undefined)).toEqual([]);
  });
});

describe("the groups' reports", () => {
  const report = (file: string, statuses: Report["files"][string]["mutants"][number]["status"][]): Report => ({
    schemaVersion: "2",
    thresholds: { high: 95, low: 90 },
    files: {
      [file]: {
        source: "",
        mutants: statuses.map((status, index) => ({ id: String(index), status, coveredBy: ["0"], killedBy: status === "Killed" ? ["0"] : [] })),
      },
    },
    testFiles: { "tests/shared.test.ts": { tests: [{ id: "0" }] } },
  });

  it("scores each file by killed and timed-out mutants out of those that could run", () => {
    expect(scoreFiles(report("lib/a.ts", ["Killed", "Timeout", "Survived", "NoCoverage", "Ignored", "CompileError"]))).toEqual([
      { file: "lib/a.ts", killed: 2, survived: 1, noCoverage: 1, disabled: 1, score: 50 },
    ]);
    expect(scoreFiles(report("lib/a.ts", ["Ignored"]))[0]?.score).toBe(100);
  });

  it("merges the files of every group, keeping the schema version and thresholds, with ids unique per group", () => {
    const merged = mergeReports([
      { group: "one", report: report("lib/a.ts", ["Killed"]) },
      { group: "two", report: report("lib/b.ts", ["Survived"]) },
    ]);
    expect(merged.schemaVersion).toBe("2");
    expect(merged.thresholds).toEqual({ high: 95, low: 90 });
    expect(scoreFiles(merged).map((score) => [score.file, score.score])).toEqual([
      ["lib/a.ts", 100],
      ["lib/b.ts", 0],
    ]);
    expect(merged.files["lib/a.ts"]?.mutants[0]).toMatchObject({ id: "one:0", coveredBy: ["one:0"], killedBy: ["one:0"] });
    expect(merged.testFiles?.["tests/shared.test.ts"]?.tests.map((test) => test.id)).toEqual(["one:0", "two:0"]);
  });

  it("refuses a file reported by two groups", () => {
    expect(() =>
      mergeReports([
        { group: "one", report: report("lib/a.ts", ["Killed"]) },
        { group: "two", report: report("lib/a.ts", ["Survived"]) },
      ]),
    ).toThrow(/lib\/a\.ts/);
  });
});
