import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * package.json is the whole truth about what the project needs: every package a source file imports (or a stylesheet
 * `@import`s) is declared there, and the code the app itself runs (app/, components/, db/, i18n/, lib/, proxy.ts,
 * instrumentation.ts) imports from `dependencies` only, which a production install (`npm ci --omit=dev`) keeps. A package that
 * is only there because another one brought it along disappears with that one's next release. tooling/ (benchmarks,
 * mutation testing) has a package.json of its own, which the root install never reads: its files may import what
 * either manifest declares, every other file only what the root's declares.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const SKIPPED = new Set(["node_modules", ".git", ".data", "test-results", "playwright-report", "reports", ".stryker-tmp", "out"]);
const RUNTIME = ["app/", "components/", "db/", "i18n/", "lib/", "proxy.ts", "instrumentation.ts"];
const BUILTINS = new Set(builtinModules);

function sourceFiles(dir = ""): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((entry) => {
    const child = path.posix.join(dir, entry);
    if (SKIPPED.has(entry) || entry.startsWith(".next")) return [];
    if (statSync(path.join(ROOT, child)).isDirectory()) return sourceFiles(child);
    return /\.(ts|tsx|mts|mjs|js|css)$/.test(entry) && !entry.endsWith(".d.ts") ? [child] : [];
  });
}

/** Every module a file names: imports and re-exports (type-only ones too), import(), require(), and CSS @import. */
export function specifiers(file: string, text: string): string[] {
  if (file.endsWith(".css")) return [...text.matchAll(/@import\s+["']([^"']+)["']/g)].map((match) => match[1]!);
  const found: string[] = [];
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const visit = (node: ts.Node) => {
    const specifier =
      ts.isImportDeclaration(node) || ts.isExportDeclaration(node)
        ? node.moduleSpecifier
        : ts.isCallExpression(node) && (node.expression.kind === ts.SyntaxKind.ImportKeyword || node.expression.getText() === "require")
          ? node.arguments[0]
          : undefined;
    if (specifier && ts.isStringLiteral(specifier)) found.push(specifier.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The package a bare specifier names ("@scope/name" or "name"), or null for the project's own files and Node's modules. */
export function packageOf(specifier: string): string | null {
  if (specifier.startsWith(".") || specifier.startsWith("/") || specifier.startsWith("@/") || specifier.startsWith("node:")) return null;
  const parts = specifier.split("/");
  const name = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
  return BUILTINS.has(name) ? null : name;
}

type Manifest = { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };

const TOOLING = "tooling/";
const namesOf = (manifest: Manifest) => [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.devDependencies ?? {})];

/** "file imports package" for every package a file imports that `manifest` (or, in tooling/, `tooling`) does not offer it. */
export function undeclared(files: ReadonlyMap<string, string>, manifest: Manifest, tooling: Manifest = {}): string[] {
  const runtime = new Set(Object.keys(manifest.dependencies ?? {}));
  const all = new Set(namesOf(manifest));
  const inTooling = new Set([...all, ...namesOf(tooling)]);
  const problems: string[] = [];
  for (const [file, text] of files) {
    // A stylesheet's imports are compiled at build time, which a production build installs dev dependencies for.
    const inApp = !file.endsWith(".css") && RUNTIME.some((place) => file === place || file.startsWith(place));
    const declared = inApp ? runtime : file.startsWith(TOOLING) ? inTooling : all;
    for (const name of new Set(specifiers(file, text).map(packageOf))) {
      if (name !== null && !declared.has(name)) problems.push(`${file} imports ${name}`);
    }
  }
  return problems.sort();
}

describe("package.json", () => {
  // Parses every source file of the repository: seconds on a quiet machine, far more under load.
  it("declares every package the source imports, the app's own code from dependencies", { timeout: 180_000 }, () => {
    const manifest = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as Manifest & { overrides?: unknown };
    const tooling = JSON.parse(readFileSync(path.join(ROOT, "tooling", "package.json"), "utf8")) as Manifest;
    const files = new Map(sourceFiles().map((file) => [file, readFileSync(path.join(ROOT, file), "utf8")]));
    expect(files.has("app/layout.tsx") && files.has("app/globals.css") && files.has("tooling/bench/lighthouse.ts")).toBe(true);
    expect(undeclared(files, manifest, tooling)).toEqual([]);
  });

  it("holds no overrides and no install hook that patches packages, in the root's manifest and tooling's", () => {
    for (const file of ["package.json", "tooling/package.json"]) {
      const manifest = JSON.parse(readFileSync(path.join(ROOT, file), "utf8")) as {
        overrides?: Record<string, unknown>;
        scripts?: Record<string, string>;
      };
      expect(manifest.overrides ?? {}, file).toEqual({});
      expect(Object.keys(manifest.scripts ?? {}).filter((name) => /^(pre|post)?install$|^prepare$/.test(name)), file).toEqual([]);
      // The root install never pulls tooling/ in: no workspaces, no dependency on it.
      expect(JSON.stringify(manifest), file).not.toMatch(/"workspaces"|"file:|"\.\/tooling"/);
    }
    expect(existsSync(path.join(ROOT, "patches"))).toBe(false);
  });

  it("would catch an undeclared package, a dev-only one in the app's code, and one a stylesheet imports", () => {
    const manifest = { dependencies: { next: "16.4.6", "@scope/runtime": "1.0.0" }, devDependencies: { vitest: "5.1.2" } };
    const files = new Map([
      ["lib/a.ts", 'import Link from "next/link";\nimport { x } from "@scope/runtime/sub";\nimport { y } from "vitest";\nimport "./b";\nimport { z } from "@/lib/c";'],
      ["tests/unit/a.test.ts", 'import { it } from "vitest";\nimport { readFile } from "node:fs/promises";\nimport path from "path";\nconst lazy = import("left-pad");'],
      ["scripts/b.ts", 'export { thing } from "@other/pkg";\nconst old = require("postcss");\nimport type { T } from "@types-only/x";'],
      ["app/globals.css", '@import "tailwindcss";\n@import "./local.css";'],
      ["tooling/bench/a.ts", 'import lighthouse from "lighthouse";\nimport { it } from "vitest";\nimport x from "stray";'],
      ["scripts/c.ts", 'import lighthouse from "lighthouse";'],
    ]);
    expect(undeclared(files, manifest, { devDependencies: { lighthouse: "12.8.2" } })).toEqual([
      "app/globals.css imports tailwindcss",
      "lib/a.ts imports vitest",
      "scripts/b.ts imports @other/pkg",
      "scripts/b.ts imports @types-only/x",
      "scripts/b.ts imports postcss",
      "scripts/c.ts imports lighthouse",
      "tests/unit/a.test.ts imports left-pad",
      "tooling/bench/a.ts imports stray",
    ]);
  });
});
