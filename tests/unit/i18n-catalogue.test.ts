import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { LOCALES } from "@/i18n/locales";
import { CATALOGUES } from "../helpers/i18n";

/**
 * The message catalogue stays whole and in use: every locale has exactly the keys of the others, with the same
 * placeholders; every key is used by the code and every key the code names exists; and no component writes
 * merchant-facing text outside the catalogue. Keys are always written in full in the code ("Orders.title"), so
 * a plain search finds them; a family addressed with a template (`InstallFailed.reason.${code}.title`) counts
 * as used through its prefix, and its members are checked by the tests of the code that builds the key.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const SOURCE_DIRS = ["app", "components", "lib", "i18n"];

function flatten(node: unknown, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    const full = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.set(full, value);
    else for (const [k, v] of flatten(value, full)) out.set(k, v);
  }
  return out;
}

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) files.push(...sourceFiles(full));
    else if (/\.(ts|tsx)$/.test(entry)) files.push(full);
  }
  return files;
}

/** Argument names ({name}, {count, plural, ...}) and tags (<link>) of an ICU message, sorted. */
function placeholders(message: string): string[] {
  const names = new Set<string>();
  for (const match of message.matchAll(/\{\s*(\w+)\s*[,}]/g)) names.add(`{${match[1]}}`);
  for (const match of message.matchAll(/<(\w+)>/g)) names.add(`<${match[1]}>`);
  return [...names].sort();
}

const catalogues = Object.fromEntries(LOCALES.map((locale) => [locale, flatten(CATALOGUES[locale])])) as Record<string, Map<string, string>>;
const reference = catalogues.en as Map<string, string>;
const files = SOURCE_DIRS.flatMap((dir) => sourceFiles(path.join(ROOT, dir)));
const sources = files.map((file) => ({ file: path.relative(ROOT, file), text: readFileSync(file, "utf8") }));
const namespaces = [...new Set([...reference.keys()].map((key) => key.split(".")[0]))];

describe("message catalogue", () => {
  it("has the same keys in every locale, none of them empty", () => {
    for (const locale of LOCALES) {
      const keys = catalogues[locale] as Map<string, string>;
      expect([...reference.keys()].filter((key) => !keys.has(key)), `keys missing in ${locale}.json`).toEqual([]);
      expect([...keys.keys()].filter((key) => !reference.has(key)), `keys in ${locale}.json but not en.json`).toEqual([]);
      expect([...keys].filter(([, value]) => value.trim() === "").map(([key]) => key), `empty messages in ${locale}.json`).toEqual([]);
    }
  });

  it("uses the same placeholders for a message in every locale", () => {
    const mismatches: string[] = [];
    for (const [key, english] of reference) {
      for (const locale of LOCALES) {
        const translated = catalogues[locale]?.get(key) ?? "";
        if (placeholders(translated).join() !== placeholders(english).join()) mismatches.push(`${locale}: ${key}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it("has no key the code never uses", () => {
    const all = sources.map((source) => source.text).join("\n");
    const dynamicPrefixes = [...all.matchAll(/`((?:[A-Z]\w*)(?:\.\w+)*\.)\$\{/g)].map((match) => match[1] as string);
    const unused = [...reference.keys()].filter(
      (key) => !all.includes(`"${key}"`) && !dynamicPrefixes.some((prefix) => key.startsWith(prefix)),
    );
    expect(unused).toEqual([]);
  });

  it("has every key the code names", () => {
    const pattern = new RegExp(`["'\`]((?:${namespaces.join("|")})\\.[\\w.]+)["'\`]`, "g");
    const missing: string[] = [];
    for (const source of sources) {
      for (const match of source.text.matchAll(pattern)) {
        const key = match[1] as string;
        // Template families end in "." before the ${...} part; their members are checked where they are built.
        if (!key.endsWith(".") && !reference.has(key)) missing.push(`${source.file}: ${key}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

/** Attributes whose value a person reads or hears. */
const TEXT_ATTRIBUTES = new Set(["aria-label", "aria-description", "aria-roledescription", "aria-valuetext", "title", "placeholder", "alt", "label", "pendingLabel"]);
const HAS_LETTER = /\p{L}/u;

function hardCodedText(file: string, text: string): string[] {
  const found: string[] = [];
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const report = (node: ts.Node, what: string) => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart());
    found.push(`${file}:${line + 1} ${what}`);
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && HAS_LETTER.test(node.text)) report(node, JSON.stringify(node.text.trim()));
    if (ts.isJsxAttribute(node) && TEXT_ATTRIBUTES.has(node.name.getText(source)) && node.initializer) {
      const value = ts.isStringLiteral(node.initializer)
        ? node.initializer
        : ts.isJsxExpression(node.initializer) && node.initializer.expression && ts.isStringLiteralLike(node.initializer.expression)
          ? node.initializer.expression
          : null;
      if (value && HAS_LETTER.test(value.text)) report(node, `${node.name.getText(source)}=${JSON.stringify(value.text)}`);
    }
    if (
      ts.isJsxExpression(node) &&
      node.expression &&
      ts.isStringLiteralLike(node.expression) &&
      (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent)) &&
      HAS_LETTER.test(node.expression.text)
    ) {
      report(node, JSON.stringify(node.expression.text));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("components", () => {
  it("hold no merchant-facing text outside the catalogue (JSX text, labels, titles, placeholders)", () => {
    const offenders = sources.filter((source) => source.file.endsWith(".tsx")).flatMap((source) => hardCodedText(source.file, source.text));
    expect(offenders).toEqual([]);
  });

  it("would catch a hard-coded sentence, label or placeholder", () => {
    const sample = `export const A = () => <p title="Hello">Sign out<input placeholder="Phone" aria-label={"Close"} />{"Loading"}{x}·</p>;`;
    expect(hardCodedText("sample.tsx", sample)).toHaveLength(5);
  });
});
