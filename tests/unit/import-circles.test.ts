import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * No import circle in the app's code (app/, components/, db/, i18n/, lib/, proxy.ts, instrumentation.ts), type-only
 * imports included: a circle of types is still two modules that cannot be understood, moved or tested apart. The
 * graph is read from the source, resolving "@/..." and relative specifiers to files of the tree.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const PLACES = ["app", "components", "db", "i18n", "lib", "proxy.ts", "instrumentation.ts"];
const EXTENSIONS = [".ts", ".tsx", "/index.ts", "/index.tsx"];

function sourceFiles(place: string): string[] {
  const full = path.join(ROOT, place);
  if (!existsSync(full)) return [];
  if (statSync(full).isFile()) return [place];
  return readdirSync(full).flatMap((entry) => {
    const child = path.posix.join(place, entry);
    if (statSync(path.join(ROOT, child)).isDirectory()) return entry === "migrations" ? [] : sourceFiles(child);
    return /\.(ts|tsx)$/.test(entry) ? [child] : [];
  });
}

/** The file of the tree a specifier names, or null for a package or a file that is not source (JSON, CSS). */
function resolve(from: string, specifier: string, files: ReadonlySet<string>): string | null {
  let base: string;
  if (specifier.startsWith("@/")) base = specifier.slice(2);
  else if (specifier.startsWith(".")) base = path.posix.join(path.posix.dirname(from), specifier);
  else return null;
  if (files.has(base)) return base;
  for (const extension of EXTENSIONS) if (files.has(base + extension)) return base + extension;
  return null;
}

export function importGraph(sources: ReadonlyMap<string, string>): Map<string, string[]> {
  const files = new Set(sources.keys());
  const graph = new Map<string, string[]>();
  for (const [file, text] of sources) {
    const targets = new Set<string>();
    const visit = (node: ts.Node) => {
      const specifier =
        ts.isImportDeclaration(node) || ts.isExportDeclaration(node)
          ? node.moduleSpecifier
          : ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword
            ? node.arguments[0]
            : undefined;
      if (specifier && ts.isStringLiteral(specifier)) {
        const found = resolve(file, specifier.text, files);
        if (found && found !== file) targets.add(found);
      }
      ts.forEachChild(node, visit);
    };
    visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS));
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/** Each circle once, as the files along it, starting from its first file in sorted order. */
export function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const found = new Map<string, string[]>();
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const walk = (file: string) => {
    state.set(file, "open");
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === "open") {
        const circle = stack.slice(stack.indexOf(next));
        const start = circle.indexOf([...circle].sort()[0]!);
        const rotated = [...circle.slice(start), ...circle.slice(0, start)];
        found.set(rotated.join(" -> "), rotated);
      } else if (!state.has(next)) walk(next);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) walk(file);
  return [...found.values()];
}

describe("import circles", () => {
  it("finds a circle through type-only and relative imports, and none in a chain", () => {
    const sources = new Map([
      ["db/client.ts", 'import { migrateJobs } from "../lib/jobs/boss";'],
      ["lib/jobs/boss.ts", 'import type { Db } from "@/db/client";'],
      ["lib/log.ts", ""],
      ["lib/a.ts", 'import { log } from "./log";'],
    ]);
    expect(circles(importGraph(sources))).toEqual([["db/client.ts", "lib/jobs/boss.ts"]]);
    sources.set("lib/jobs/boss.ts", 'import type { Db } from "@/db/types";');
    sources.set("db/types.ts", "");
    expect(circles(importGraph(sources))).toEqual([]);
  });

  it("the app's code has none", () => {
    const sources = new Map(PLACES.flatMap(sourceFiles).map((file) => [file, readFileSync(path.join(ROOT, file), "utf8")] as const));
    expect(sources.size).toBeGreaterThan(100);
    expect(circles(importGraph(sources))).toEqual([]);
  });
});
