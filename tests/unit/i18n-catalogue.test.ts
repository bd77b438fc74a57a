import { readdirSync, readFileSync, statSync } from "node:fs";
import { pathToFileURL } from "node:url";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { LOCALES } from "@/i18n/locales";
import { CATALOGUES } from "../helpers/i18n";

/**
 * The message catalogue stays whole and in use: every locale has exactly the keys of the others, with the same
 * placeholders; every key is used by the code and every key the code names exists in every locale, whatever its
 * group (a new page's "Customers.title" included); every key a client component reads is handed to the browser
 * above it; and no component writes merchant-facing text outside the catalogue. Keys are always written in full in
 * the code ("Orders.title"), so a plain search finds them; a family addressed with a template
 * (`InstallFailed.reason.${code}.title`) counts as used through its prefix, and its members are checked by the
 * tests of the code that builds the key.
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

/**
 * What the code names as a message key: any quoted "Group.key" (a capitalised word, then dot-separated names), so
 * a group no catalogue has yet is found too. Nothing else in app/, components/, lib/ or i18n/ is written that way.
 */
const KEY_LITERAL = /["'`]([A-Z][A-Za-z0-9]*(?:\.[A-Za-z0-9_]+)+)["'`]/g;
/** The fixed part of a template-built key: `Overview.period.ranges.${preset}` -> "Overview.period.ranges.". */
const KEY_FAMILY = /`((?:[A-Z]\w*)(?:\.\w+)*\.)\$\{/g;

function keysNamed(text: string): { keys: string[]; families: string[] } {
  return {
    keys: [...text.matchAll(KEY_LITERAL)].map((match) => match[1] as string),
    families: [...text.matchAll(KEY_FAMILY)].map((match) => match[1] as string),
  };
}

function missingKeys(files: { file: string; text: string }[], locales: Record<string, Map<string, string>>): string[] {
  const missing: string[] = [];
  for (const source of files) {
    for (const key of keysNamed(source.text).keys) {
      for (const [locale, keys] of Object.entries(locales)) if (!keys.has(key)) missing.push(`${locale}: ${source.file}: ${key}`);
    }
  }
  return missing;
}

describe("message catalogue", () => {
  it("has the same keys in every locale, none of them empty", () => {
    for (const locale of LOCALES) {
      const keys = catalogues[locale] as Map<string, string>;
      expect([...reference.keys()].filter((key) => !keys.has(key)), `keys missing in ${locale}.json`).toEqual([]);
      expect([...keys.keys()].filter((key) => !reference.has(key)), `keys in ${locale}.json but not en.json`).toEqual([]);
      expect([...keys].filter(([, value]) => value.trim() === "").map(([key]) => key), `empty messages in ${locale}.json`).toEqual([]);
    }
  });

  it("lists in messages/untranslated.json only keys that exist and still read as in English", () => {
    // npm run new:section writes a new key's English text into every locale and lists it there until translated.
    const untranslated = JSON.parse(readFileSync(path.join(ROOT, "messages/untranslated.json"), "utf8")) as Record<string, string[]>;
    const stale: string[] = [];
    for (const [locale, keys] of Object.entries(untranslated)) {
      for (const key of keys) {
        const text = catalogues[locale]?.get(key);
        if (text === undefined) stale.push(`${locale}: ${key} is not in ${locale}.json`);
        else if (text !== reference.get(key)) stale.push(`${locale}: ${key} is translated: take it out of the list`);
      }
    }
    expect(stale).toEqual([]);
    const waiting = Object.entries(untranslated).filter(([, keys]) => keys.length > 0);
    if (waiting.length) console.info(`Untranslated messages (messages/untranslated.json): ${waiting.map(([locale, keys]) => `${locale} ${keys.length}`).join(", ")}`);
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
    const dynamicPrefixes = keysNamed(all).families;
    const unused = [...reference.keys()].filter(
      (key) => !all.includes(`"${key}"`) && !dynamicPrefixes.some((prefix) => key.startsWith(prefix)),
    );
    expect(unused).toEqual([]);
  });

  it("has every key the code names, in every locale, whatever its group", () => {
    expect(missingKeys(sources, catalogues)).toEqual([]);
  });

  it("would catch a key of a group no catalogue has, and one a single locale lacks", () => {
    const sample = [{ file: "app/stores/[storeId]/customers/page.tsx", text: 'title: t("Customers.title"), t("Orders.title"), t(`Orders.${x}`)' }];
    const locales = { en: new Map([["Orders.title", "Orders"]]), fr: new Map<string, string>() };
    expect(missingKeys(sample, locales).sort()).toEqual([
      "en: app/stores/[storeId]/customers/page.tsx: Customers.title",
      "fr: app/stores/[storeId]/customers/page.tsx: Customers.title",
      "fr: app/stores/[storeId]/customers/page.tsx: Orders.title",
    ]);
  });
});

/**
 * Client components get no catalogue, only the messages a layout or page hands down (clientMessages +
 * ClientMessages); a key missing there shows the merchant the raw key ("Shell.customers"). So for every route file
 * under app/ (page, layout, error, ...), the code it runs in the browser (what a "use client" module and everything
 * it imports holds) may name only keys handed above it: by the layouts of its folder and the folders above, and by
 * the page itself. Handed lists are read from the module that exports them (`clientMessages(SOME_KEYS)`).
 */
const ROUTE_FILE = /(^|\/)(page|layout|error|loading|not-found|template|default|global-error)\.tsx$/;
const IMPORTED = /^\s*(?:import|export)\s+(type\s+)?[^;]*?\bfrom\s*["']([^"']+)["']/gm;
/** A lazily loaded module (React's lazy, next/dynamic): still code the browser runs. */
const IMPORTED_LATER = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

const SERVER_TRANSLATOR = /from\s*["'](?:next-intl\/server|@\/i18n\/server)["']/;

type Sources = Map<string, string>;

function resolveModule(files: Sources, from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith("@/")) base = specifier.slice(2);
  else if (specifier.startsWith(".")) base = path.posix.join(path.posix.dirname(from), specifier);
  else return null;
  return ["", ".ts", ".tsx", "/index.ts", "/index.tsx"].map((ending) => base + ending).find((candidate) => files.has(candidate)) ?? null;
}

function directive(text: string, name: "use client" | "use server"): boolean {
  return new RegExp(`^\\s*(?:\\/\\/[^\\n]*\\n\\s*|\\/\\*[\\s\\S]*?\\*\\/\\s*)*["']${name}["']`).test(text);
}

/** The browser code a route file brings: "use client" modules it reaches, and everything those import. */
function clientModulesOf(files: Sources, entry: string): Set<string> {
  const client = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string, inClient: boolean) => {
    const text = files.get(file) ?? "";
    // A server action imported by a client component stays on the server: the browser gets a reference to call.
    if (inClient && directive(text, "use server")) return;
    const isClient = inClient || directive(text, "use client");
    const mark = `${file}:${isClient}`;
    if (seen.has(mark)) return;
    seen.add(mark);
    if (isClient) client.add(file);
    const named = [...text.matchAll(IMPORTED)].filter((match) => !match[1]).map((match) => match[2] as string); // type-only imports bring no code
    for (const specifier of [...named, ...[...text.matchAll(IMPORTED_LATER)].map((match) => match[1] as string)]) {
      const next = resolveModule(files, file, specifier);
      if (next) visit(next, isClient);
    }
  };
  visit(entry, false);
  return client;
}

/** The keys handed to the browser above a route file: its folder's and its parents' layouts, and a page's own. */
function keysInScope(entry: string, handed: (file: string) => string[]): Set<string> {
  const keys = new Set<string>(handed(entry));
  const parts = path.posix.dirname(entry).split("/");
  for (let depth = 1; depth <= parts.length; depth++) for (const key of handed(`${parts.slice(0, depth).join("/")}/layout.tsx`)) keys.add(key);
  return keys;
}

function unhandedClientKeys(files: Sources, handed: (file: string) => string[]): string[] {
  const problems = new Set<string>();
  for (const entry of [...files.keys()].filter((file) => file.startsWith("app/") && ROUTE_FILE.test(file))) {
    const scope = keysInScope(entry, handed);
    for (const file of clientModulesOf(files, entry)) {
      const text = files.get(file) ?? "";
      // A module that translates on the server (validated-action.ts, shared for its initial state) names keys for
      // the server's translator, not the browser's.
      if (SERVER_TRANSLATOR.test(text)) continue;
      const { keys, families } = keysNamed(text);
      for (const key of keys) if (!scope.has(key)) problems.add(`${entry}: ${file} uses ${key}`);
      for (const family of families) if (![...scope].some((key) => key.startsWith(family))) problems.add(`${entry}: ${file} uses ${family}*`);
    }
  }
  return [...problems];
}

/** The keys a route file hands to the browser: the lists it passes to clientMessages, read from their modules. */
async function handedKeys(files: Sources): Promise<Map<string, string[]>> {
  const handed = new Map<string, string[]>();
  for (const [file, text] of files) {
    for (const call of text.matchAll(/clientMessages\(\s*([A-Za-z_$][\w$]*)\s*\)/g)) {
      const name = call[1] as string;
      const imported = [...text.matchAll(IMPORTED)].find((match) => new RegExp(`[{,\\s]${name}[\\s,}]`).test(match[0]));
      const from = imported ? resolveModule(files, file, imported[2] as string) : null;
      if (!from) throw new Error(`${file}: clientMessages(${name}) must take a list imported from a module of its own, which this test reads`);
      const list = (await import(pathToFileURL(path.join(ROOT, from)).href))[name] as string[];
      handed.set(file, [...(handed.get(file) ?? []), ...list]);
    }
  }
  return handed;
}

describe("client components", () => {
  it("read only keys a layout or page above them hands to the browser", async () => {
    const files: Sources = new Map(sources.map((source) => [source.file.split(path.sep).join("/"), source.text]));
    const handed = await handedKeys(files);
    expect(handed.size, "the store layout and the categories page hand messages down").toBeGreaterThanOrEqual(2);
    expect(unhandedClientKeys(files, (file) => handed.get(file) ?? [])).toEqual([]);
  });

  it("would catch a client component's key no layout or page hands down, however deep it is imported", () => {
    const files: Sources = new Map([
      ["app/stores/[storeId]/layout.tsx", 'import { StoreNav } from "@/components/store-nav";\nimport type { X } from "./types";'],
      ["app/stores/[storeId]/customers/page.tsx", 'import { Island } from "./_components/island";'],
      ["app/stores/[storeId]/customers/_components/island.tsx", '"use client";\nimport { LABELS } from "./labels";\nt("Customers.search");\nlazy(() => import("./editor"));'],
      ["app/stores/[storeId]/customers/_components/editor.tsx", 't("Customers.edit");'],
      ["app/stores/[storeId]/customers/_components/labels.ts", 'export const LABELS = ["Customers.empty", "Errors.tryAgain"];'],
      ["app/stores/[storeId]/types.ts", '"use client";\nt("Types.never");'],
      ["components/store-nav.tsx", '"use client";\nt("Shell.sections"); t("Shell.customers"); t(`Drag.${x}`);'],
    ]);
    const handed = (file: string) => (file === "app/stores/[storeId]/layout.tsx" ? ["Shell.sections", "Errors.tryAgain"] : file.endsWith("customers/page.tsx") ? ["Customers.search"] : []);
    expect(unhandedClientKeys(files, handed).sort()).toEqual([
      "app/stores/[storeId]/customers/page.tsx: app/stores/[storeId]/customers/_components/editor.tsx uses Customers.edit",
      "app/stores/[storeId]/customers/page.tsx: app/stores/[storeId]/customers/_components/labels.ts uses Customers.empty",
      "app/stores/[storeId]/layout.tsx: components/store-nav.tsx uses Drag.*",
      "app/stores/[storeId]/layout.tsx: components/store-nav.tsx uses Shell.customers",
    ]);
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
