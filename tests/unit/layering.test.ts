import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { INSTALL_STATES } from "@/lib/installs/state";

/**
 * Two rules of the house, read from the source itself:
 * - the database layer is the ground floor: no file of db/ imports anything from lib/ or i18n/, not even a type, so
 *   no business rule can hide in a query and the connection settings come from the caller (the shapes the queries
 *   store, an install's states or an order's copy, are written in db/ and lib/ hands them on);
 * - lib/ sits below i18n/: i18n/ reads lib/env.ts, so lib/ imports nothing of i18n/, not even a type;
 * - the app (app/, lib/, db/, components/) imports nothing of tooling/ (benchmarks, mutation testing), not even a
 *   type: tooling runs against the app, and a clone whose install never fetched tooling's packages must still build;
 * - what an install state means is decided in lib/installs/state.ts only: no other file compares a state to a
 *   literal ("active", "revoked"...), in TypeScript or in a drizzle condition; they ask its predicates.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");

function sourceFiles(dir: string): string[] {
  const full = path.join(ROOT, dir);
  if (statSync(full).isFile()) return [dir];
  return readdirSync(full).flatMap((entry) => {
    const child = path.join(dir, entry);
    if (statSync(path.join(ROOT, child)).isDirectory()) return entry === "migrations" ? [] : sourceFiles(child);
    return /\.(ts|tsx)$/.test(entry) ? [child] : [];
  });
}

function parse(file: string, text: string): ts.SourceFile {
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
}

/** Where `specifier`, imported by `file`, points inside the repository ("lib/log" for "@/lib/log" or "../../lib/log"). */
function target(file: string, specifier: string): string {
  if (specifier.startsWith("@/")) return specifier.slice(2);
  if (specifier.startsWith(".")) return path.posix.join(path.posix.dirname(file.split(path.sep).join("/")), specifier);
  return specifier;
}

/**
 * Every import or re-export from one of `folders` (as `specifier`): of values only, skipping `import type` and
 * `export type`, unless `types` is true.
 */
export function importsFrom(file: string, text: string, folders: readonly string[], { types = false } = {}): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    let specifier: ts.Expression | undefined;
    if (ts.isImportDeclaration(node) && (types || !node.importClause?.isTypeOnly)) specifier = node.moduleSpecifier;
    if (ts.isExportDeclaration(node) && (types || !node.isTypeOnly)) specifier = node.moduleSpecifier;
    if (ts.isCallExpression(node) && (node.expression.kind === ts.SyntaxKind.ImportKeyword || node.expression.getText() === "require")) {
      specifier = node.arguments[0];
    }
    if (specifier && ts.isStringLiteral(specifier) && folders.some((folder) => target(file, specifier.text).startsWith(`${folder}/`))) {
      found.push(specifier.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(parse(file, text));
  return found;
}

const valueImportsFromLib = (file: string, text: string) => importsFrom(file, text, ["lib"]);

const STATES = new Set<string>(INSTALL_STATES);
const COMPARISONS = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
]);
/** drizzle's comparisons: `eq(installs.state, "revoked")`, `inArray(installs.state, ["revoked"])`... */
const SQL_COMPARISONS = new Set(["eq", "ne", "inArray", "notInArray"]);

const isStateLiteral = (node: ts.Node) => ts.isStringLiteralLike(node) && STATES.has(node.text);
/** An expression that reads an install state: `state`, `install.state`, `installs.state`, `row.state`. */
const readsState = (node: ts.Node) => /(^|\.)state$/.test(node.getText());

/** Every place `text` compares an install state to a literal, as "line: code". */
export function stateLiteralComparisons(file: string, text: string): string[] {
  const source = parse(file, text);
  const found: string[] = [];
  const report = (node: ts.Node) => {
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    found.push(`${line}: ${node.getText(source).slice(0, 80)}`);
  };
  const visit = (node: ts.Node) => {
    if (ts.isBinaryExpression(node) && COMPARISONS.has(node.operatorToken.kind)) {
      if ((readsState(node.left) && isStateLiteral(node.right)) || (readsState(node.right) && isStateLiteral(node.left))) report(node);
    }
    if (ts.isCallExpression(node) && SQL_COMPARISONS.has(node.expression.getText(source))) {
      const [column, value] = node.arguments;
      const literals = value && ts.isArrayLiteralExpression(value) ? value.elements : value ? [value] : [];
      if (column && readsState(column) && literals.some(isStateLiteral)) report(node);
    }
    if (ts.isSwitchStatement(node) && readsState(node.expression)) {
      for (const clause of node.caseBlock.clauses) if (ts.isCaseClause(clause) && isStateLiteral(clause.expression)) report(clause);
    }
    // Raw SQL: `${installs.state} = 'active'`.
    if (ts.isTemplateSpan(node) && readsState(node.expression) && /^\s*(=|<>|!=|in\b|not in\b)\s*\(?\s*'/i.test(node.literal.text)) {
      const quoted = /'([a-z_]+)'/.exec(node.literal.text)?.[1];
      if (quoted && STATES.has(quoted)) report(node);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("db/ is the ground floor", () => {
  const files = sourceFiles("db");

  it("no file of db/ imports anything from lib/ or i18n/, types included", () => {
    expect(files).toEqual(expect.arrayContaining([path.join("db", "client.ts"), path.join("db", "open.ts"), path.join("db", "schema.ts")]));
    expect(files.filter((file) => file.startsWith(path.join("db", "queries"))).length).toBeGreaterThan(5);
    const offending = files.flatMap((file) =>
      importsFrom(file, readFileSync(path.join(ROOT, file), "utf8"), ["lib", "i18n"], { types: true }).map((specifier) => `${file} imports ${specifier}`),
    );
    expect(offending).toEqual([]);
  });

  it("the scan sees value imports, re-exports and dynamic imports from lib/, and lets types through", () => {
    const sample = [
      'import type { InstallState } from "@/lib/installs/state";',
      'import { log } from "@/lib/log";',
      'import { type Logger, withLogger } from "../../lib/log";',
      'export { phoneVariants } from "@/lib/phone";',
      'export type { PlatformOrder } from "@/lib/platform";',
      'const later = () => import("@/lib/env");',
      'import { installs } from "@/db/schema";',
    ].join("\n");
    expect(valueImportsFromLib("db/queries/sample.ts", sample)).toEqual(["@/lib/log", "../../lib/log", "@/lib/phone", "@/lib/env"]);
    expect(importsFrom("db/sample.ts", 'import { env } from "../lib/env";\nimport { LOCALES } from "@/i18n/locales";', ["lib", "i18n"])).toEqual([
      "../lib/env",
      "@/i18n/locales",
    ]);
    // "library/" is not "lib/".
    expect(importsFrom("db/sample.ts", 'import { x } from "@/library/x";', ["lib"])).toEqual([]);
  });
});

describe("lib/ sits below i18n/", () => {
  it("no file of lib/ imports anything of i18n/, types included", () => {
    const files = sourceFiles("lib");
    expect(files.length).toBeGreaterThan(50);
    const offending = files.flatMap((file) =>
      importsFrom(file, readFileSync(path.join(ROOT, file), "utf8"), ["i18n"], { types: true }).map((specifier) => `${file} imports ${specifier}`),
    );
    expect(offending).toEqual([]);
  });

  it("the scan counts type-only imports when asked", () => {
    const sample = 'import type { Translate } from "@/i18n/translate";\nimport { LOCALES } from "../i18n/locales";';
    expect(importsFrom("lib/sample.ts", sample, ["i18n"], { types: true })).toEqual(["@/i18n/translate", "../i18n/locales"]);
    expect(importsFrom("lib/sample.ts", sample, ["i18n"])).toEqual(["../i18n/locales"]);
  });
});

describe("an install state is compared to a literal only in lib/installs/state.ts", () => {
  const files = ["app", "components", "lib", "db"].flatMap(sourceFiles).filter((file) => file !== path.join("lib", "installs", "state.ts"));

  it("no other file compares one", () => {
    expect(files.length).toBeGreaterThan(50);
    const offending = files.flatMap((file) =>
      stateLiteralComparisons(file, readFileSync(path.join(ROOT, file), "utf8")).map((where) => `${file}:${where}`),
    );
    expect(offending).toEqual([]);
  });

  it("the scan sees comparisons in code, in drizzle conditions, in switches and in raw SQL, and nothing else", () => {
    const sample = [
      'if (install.state === "revoked") stop();', // 1
      'const attention = "active" !== store.state;', // 2
      "db.select().from(installs).where(eq(installs.state, 'uninstalled'));", // 3
      'db.select().from(installs).where(notInArray(installs.state, ["revoked", "uninstalled"]));', // 4
      'switch (row.state) { case "app_suspended": break; }', // 5
      "sql`case when ${installs.state} = 'active' then 1 end`;", // 6
      'const written = { state: "active" };', // an assignment
      'if (category.status === "active") show();', // another kind of status
      'if (verdict(session) !== "active") end();', // a session verdict
      "if (isClosed(install.state)) stop();", // a predicate
    ].join("\n");
    expect(stateLiteralComparisons("lib/sample.ts", sample).map((where) => where.split(":")[0])).toEqual(["1", "2", "3", "4", "5", "6"]);
  });
});

describe("the app never imports tooling/", () => {
  const files = ["app", "components", "lib", "db"].flatMap(sourceFiles);

  it("no file of app/, components/, lib/ or db/ imports from tooling/, types included", () => {
    expect(files.length).toBeGreaterThan(50);
    const offending = files.flatMap((file) =>
      importsFrom(file, readFileSync(path.join(ROOT, file), "utf8"), ["tooling"], { types: true }).map((specifier) => `${file} imports ${specifier}`),
    );
    expect(offending).toEqual([]);
  });

  it("the scan sees an alias, a relative path and a type-only import of tooling/", () => {
    const sample = [
      'import { load } from "@/tooling/bench/support";',
      'import type { BenchResult } from "../../tooling/bench/types";',
      'import { log } from "@/lib/log";',
    ].join("\n");
    expect(importsFrom("lib/jobs/sample.ts", sample, ["tooling"], { types: true })).toEqual(["@/tooling/bench/support", "../../tooling/bench/types"]);
  });
});
