import { readFile } from "node:fs/promises";
import { relative } from "node:path";

/** What `npm test` closes with: the totals over vitest and Playwright, and each failed test by name. */
export type TestTotals = { passed: number; failed: number; skipped: number; failures: string[] };

type VitestReport = {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults: {
    name: string;
    message?: string;
    assertionResults: { status: string; fullName: string; failureMessages: string[] }[];
  }[];
};

type PlaywrightSuite = {
  file?: string;
  suites?: PlaywrightSuite[];
  specs?: { title: string; line: number; ok: boolean; tests: { results: { error?: { message?: string } }[] }[] }[];
};

type PlaywrightReport = {
  stats: { expected: number; unexpected: number; skipped: number; flaky: number };
  suites?: PlaywrightSuite[];
};

/** The first line of a failure's message, without terminal colours: enough to tell which assertion broke. */
function firstLine(message: string | undefined): string {
  const line = (message ?? "").replace(/\u001b\[[0-9;]*m/g, "").split("\n").find((text) => text.trim() !== "");
  return line ? `: ${line.trim().slice(0, 200)}` : "";
}

function playwrightFailures(suites: PlaywrightSuite[] | undefined, file: string): string[] {
  return (suites ?? []).flatMap((suite) => {
    const where = suite.file ?? file;
    const failed = (suite.specs ?? []).filter((spec) => !spec.ok);
    return [
      ...failed.map((spec) => `${where}:${spec.line} › ${spec.title}${firstLine(spec.tests.at(-1)?.results.at(-1)?.error?.message)}`),
      ...playwrightFailures(suite.suites, where),
    ];
  });
}

export function totalsOf(vitest: VitestReport | undefined, playwright: PlaywrightReport | undefined, root: string): TestTotals {
  const totals: TestTotals = { passed: 0, failed: 0, skipped: 0, failures: [] };
  if (vitest) {
    totals.passed += vitest.numPassedTests;
    totals.failed += vitest.numFailedTests;
    totals.skipped += vitest.numPendingTests + vitest.numTodoTests;
    for (const file of vitest.testResults) {
      const name = relative(root, file.name);
      const failed = file.assertionResults.filter((test) => test.status === "failed");
      totals.failures.push(...failed.map((test) => `${name} › ${test.fullName}${firstLine(test.failureMessages[0])}`));
      // A file that failed before any test ran (an import error, a failing beforeAll) has a message and no test.
      if (failed.length === 0 && file.message) totals.failures.push(`${name}${firstLine(file.message)}`);
    }
  }
  if (playwright) {
    totals.passed += playwright.stats.expected + playwright.stats.flaky;
    totals.failed += playwright.stats.unexpected;
    totals.skipped += playwright.stats.skipped;
    totals.failures.push(...playwrightFailures(playwright.suites, ""));
  }
  return totals;
}

async function readJson<T>(path: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(path, "utf8")) as T;
  } catch {
    return undefined; // No report: the step did not run.
  }
}

export async function readReports(vitestPath: string, playwrightPath: string): Promise<TestTotals> {
  return totalsOf(await readJson<VitestReport>(vitestPath), await readJson<PlaywrightReport>(playwrightPath), process.cwd());
}
