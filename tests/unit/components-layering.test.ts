import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * components/ holds what several routes share, so it depends on nothing route-specific: no file under it imports
 * from app/ (a route's components and server actions live beside the route, or come in as props).
 */

const ROOT = path.resolve(import.meta.dirname, "../..");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(entry) ? [full] : [];
  });
}

/** Every module a file names: import/export ... from "x", import "x", import("x"), require("x"). */
function specifiers(text: string): string[] {
  const found: string[] = [];
  const patterns = [/\b(?:import|export)\s[^;]*?\bfrom\s*["']([^"']+)["']/g, /\bimport\s*["']([^"']+)["']/g, /\b(?:import|require)\s*\(\s*["']([^"']+)["']\s*\)/g];
  for (const pattern of patterns) for (const match of text.matchAll(pattern)) found.push(match[1] as string);
  return found;
}

/** The repository-relative path a specifier points to, for the project's own modules ("@/..." or relative). */
function target(file: string, specifier: string): string | null {
  if (specifier.startsWith("@/")) return specifier.slice(2);
  if (specifier.startsWith(".")) return path.relative(ROOT, path.resolve(path.dirname(file), specifier));
  return null;
}

function importsFromApp(file: string, text: string): string[] {
  return specifiers(text)
    .filter((specifier) => {
      const to = target(file, specifier);
      return to !== null && (to === "app" || to.startsWith(`app${path.sep}`) || to.startsWith("app/"));
    })
    .map((specifier) => `${path.relative(ROOT, file)} imports ${specifier}`);
}

describe("components/", () => {
  it("imports nothing from app/", () => {
    const offenders = sourceFiles(path.join(ROOT, "components")).flatMap((file) => importsFromApp(file, readFileSync(file, "utf8")));
    expect(offenders).toEqual([]);
  });

  it("would catch an import from app/, by alias, relative path, re-export or dynamic import", () => {
    const file = path.join(ROOT, "components/orders/sample.tsx");
    const sample = [
      'import { switchLocale } from "@/app/actions/locale";',
      "import {\n  createCategory,\n} from '../../app/stores/[storeId]/categories/actions';",
      'export { retry } from "@/app/stores/[storeId]/import-actions";',
      'const lazy = import("../../app/page");',
      'import { LinkWithStatus } from "@/components/link-with-status";',
      'import { OrdersTable } from "./orders-table";',
      'import { useState } from "react";',
    ].join("\n");
    expect(importsFromApp(file, sample)).toHaveLength(4);
  });
});
