/**
 * Stryker's JSON reports (mutation-testing-report-schema) for `npm run test:mutation`: the per-file score, the
 * merge of the reports of the groups run one by one, and one HTML page for the merged report.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";

export type MutantStatus =
  | "Killed"
  | "Survived"
  | "NoCoverage"
  | "Timeout"
  | "CompileError"
  | "RuntimeError"
  | "Ignored"
  | "Pending";

type Mutant = { id: string; status: MutantStatus; coveredBy?: string[]; killedBy?: string[] };
type TestDefinition = { id: string };

export type Report = {
  schemaVersion?: string;
  thresholds?: { high: number; low: number };
  projectRoot?: string;
  files: Record<string, { source: string; mutants: Mutant[] } & Record<string, unknown>>;
  testFiles?: Record<string, { tests: TestDefinition[] } & Record<string, unknown>>;
};

export type FileScore = {
  file: string;
  killed: number;
  survived: number;
  noCoverage: number;
  disabled: number;
  /** Killed (a test failed, or the mutant hung past the timeout) out of every mutant that could run. */
  score: number;
};

/** Stryker's own definition: (killed + timeout) / (killed + timeout + survived + no coverage). */
export function scoreFiles(report: Pick<Report, "files">): FileScore[] {
  return Object.entries(report.files)
    .map(([file, { mutants }]) => {
      const count = (...statuses: MutantStatus[]) => mutants.filter((mutant) => statuses.includes(mutant.status)).length;
      const killed = count("Killed", "Timeout");
      const survived = count("Survived");
      const noCoverage = count("NoCoverage");
      const valid = killed + survived + noCoverage;
      return { file, killed, survived, noCoverage, disabled: count("Ignored"), score: valid === 0 ? 100 : (100 * killed) / valid };
    })
    .sort((a, b) => a.file.localeCompare(b.file));
}

/**
 * One report from the groups' reports. Files are keyed by path, each from exactly one group (a file in two reports
 * is an error: its score would depend on the order). Mutant and test ids are only unique within one run, so each
 * group's ids are prefixed with its name; a test file run by several groups lists each group's tests.
 */
export function mergeReports(reports: { group: string; report: Report }[]): Report {
  const first = reports[0]?.report;
  const merged: Report = {
    schemaVersion: first?.schemaVersion,
    thresholds: first?.thresholds,
    projectRoot: first?.projectRoot,
    files: {},
  };
  const testFiles: NonNullable<Report["testFiles"]> = {};
  for (const { group, report } of reports) {
    const id = (value: string) => `${group}:${value}`;
    for (const [file, result] of Object.entries(report.files)) {
      if (file in merged.files) throw new Error(`${file} is in more than one group's report`);
      merged.files[file] = {
        ...result,
        mutants: result.mutants.map((mutant) => ({
          ...mutant,
          id: id(mutant.id),
          ...(mutant.coveredBy && { coveredBy: mutant.coveredBy.map(id) }),
          ...(mutant.killedBy && { killedBy: mutant.killedBy.map(id) }),
        })),
      };
    }
    for (const [file, result] of Object.entries(report.testFiles ?? {})) {
      const tests = result.tests.map((test) => ({ ...test, id: id(test.id) }));
      const existing = testFiles[file];
      testFiles[file] = existing ? { ...existing, tests: [...existing.tests, ...tests] } : { ...result, tests };
    }
  }
  if (Object.keys(testFiles).length > 0) merged.testFiles = testFiles;
  return merged;
}

/** The page Stryker's html reporter writes: mutation-testing-elements inline, the report embedded. */
export async function reportHtml(report: Report, title: string): Promise<string> {
  const require = createRequire(import.meta.url);
  const elements = await readFile(require.resolve("mutation-testing-elements/dist/mutation-test-elements.js"), "utf8");
  // A "</script>" inside a source file would end the script element; split every "<" as Stryker does.
  const json = JSON.stringify(report).replace(/</g, '<"+"');
  return `<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8">
<title>${title}</title>
<script>
${elements}
</script>
</head>
<body>
<mutation-test-report-app titlePostfix="${title}">Your browser does not support custom elements.</mutation-test-report-app>
<script>
const app = document.querySelector("mutation-test-report-app");
app.report = ${json};
function updateTheme() { document.body.style.backgroundColor = app.themeBackgroundColor; }
app.addEventListener("theme-changed", updateTheme);
updateTheme();
</script>
</body>
</html>
`;
}
