import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The documentation a newcomer reads: short enough for an evening, and naming only things that exist. A page that
 * names a file, folder, `npm run` script or environment variable the repository does not have fails here, with the
 * page and the name.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");

const PAGES = ["README.md", ...readdirSync(path.join(ROOT, "docs")).filter((file) => file.endsWith(".md")).map((file) => `docs/${file}`), "emulator/README.md"];

const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

/** Words as `wc -w` counts them: runs of characters that are not whitespace. */
export const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** A name in backticks is taken for a path when it starts with one of these folders or ends with one of these extensions. */
const TOP_FOLDERS = ["app", "components", "db", "docs", "emulator", "i18n", "lib", "messages", "scripts", "tests", "bench", "tooling", "public", ".github", ".ci", "drizzle"];
const EXTENSIONS = /\.(?:ts|tsx|mts|js|mjs|cjs|json|md|sql|ya?ml|css|sh|example|toml)$/;

/** Paths the docs may name that no checkout holds, because a command or a run makes them. */
const GENERATED = new Map<string, string>([
  [".next/standalone", "written by `npm run build` (output: standalone)"],
  [".data/", "the embedded database, created by the first `npm run dev`"],
  ["node_modules", "written by `npm install`"],
  ["test-results/", "Playwright's output of a failed run"],
  ["tooling/node_modules", "written when an opt-in tool is first used"],
  ["reports/", "StrykerJS's report, written by `npm run test:mutation`"],
]);

/** Next.js file conventions a page may discuss by name although this app has none of them. */
const CONVENTIONS = new Set(["loading.tsx"]);

const SOURCE_DIRS = ["app", "bench", "components", "db", "emulator", "i18n", "lib", "messages", "scripts", "tests", "tooling", ".ci", ".github"];
const SKIPPED_DIRS = new Set(["node_modules", ".git", ".next", ".next-test", ".data", "test-results", "reports"]);

function walk(dir: string, files: string[] = []): string[] {
  if (!existsSync(dir)) return files;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED_DIRS.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, files);
    else files.push(full);
  }
  return files;
}

const sourceFiles = [
  ...SOURCE_DIRS.flatMap((dir) => walk(path.join(ROOT, dir))),
  ...readdirSync(ROOT)
    .filter((file) => /\.(?:ts|mjs|json)$/.test(file) || file === ".env.example")
    .map((file) => path.join(ROOT, file)),
].filter((file) => !file.endsWith(".md") && file !== path.join(ROOT, "tests/unit/docs.test.ts"));

/** Every UPPER_SNAKE word the code, its configuration and `.env.example` spell: the names a page may give in backticks. */
const CODE_NAMES = new Set(sourceFiles.flatMap((file) => readFileSync(file, "utf8").match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g) ?? []));

const BASENAMES = new Set(sourceFiles.concat(walk(path.join(ROOT, "docs"))).map((file) => path.basename(file)));

function scriptsOf(file: string): string[] {
  return existsSync(path.join(ROOT, file)) ? Object.keys((JSON.parse(read(file)) as { scripts?: Record<string, string> }).scripts ?? {}) : [];
}
const SCRIPTS = new Set([...scriptsOf("package.json"), ...scriptsOf("tooling/package.json")]);

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutFences(markdown).split("\n")) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading?.[1]) continue;
    const slug = heading[1]
      .toLowerCase()
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(slug) ?? 0;
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
    seen.set(slug, count + 1);
  }
  return anchors;
}

function withoutFences(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```\s*$/gm, "");
}

function exists(relative: string): boolean {
  const clean = relative.replace(/\/+$/, "");
  const full = path.join(ROOT, clean);
  if (existsSync(full)) return true;
  // An import path names a module without its extension (`lib/log`, `@/lib/platform`).
  return [".ts", ".tsx", ".mjs", ".js", "/index.ts"].some((suffix) => existsSync(full + suffix));
}

type Problem = string;

/** What one page names that the repository does not have. */
export function missingNames(page: string, markdown: string): Problem[] {
  const problems: Problem[] = [];
  const pageDir = path.dirname(page);
  const prose = withoutFences(markdown);

  // Relative links, and the anchors they point at.
  for (const match of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = match[1] ?? "";
    if (/^[a-z]+:/i.test(target) || target.startsWith("//")) continue;
    const [file = "", anchor] = target.split("#");
    const linked = file === "" ? page : path.normalize(path.join(pageDir, file));
    if (!existsSync(path.join(ROOT, linked))) {
      problems.push(`${page}: link to ${target}: no such file`);
      continue;
    }
    if (anchor && linked.endsWith(".md") && !anchorsOf(read(linked)).has(anchor)) problems.push(`${page}: link to ${target}: no such heading`);
  }

  for (const match of prose.matchAll(/`([^`\n]+)`/g)) {
    const span = (match[1] ?? "").trim();

    // Environment variables (and the code's constants), alone, assigned or interpolated.
    for (const name of [/^([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(?:=\S*)?$/.exec(span)?.[1], ...[...span.matchAll(/\$\{([A-Z][A-Z0-9_]+)\}/g)].map((found) => found[1])]) {
      if (name && !CODE_NAMES.has(name)) problems.push(`${page}: \`${name}\`: no code or .env.example reads this variable`);
    }

    // Paths: a known top folder or a known extension, no spaces, no placeholders.
    const candidate = span.replace(/^@\//, "").replace(/:\d+$/, "");
    if (/[\s<>{}*$…|]|\.\.\./.test(candidate) || candidate.startsWith("/") || /^[a-z]+:\/\//.test(candidate)) continue;
    const isPath = TOP_FOLDERS.some((folder) => candidate.startsWith(`${folder}/`)) || EXTENSIONS.test(candidate);
    const generated = [...GENERATED.keys()].some((made) => `${candidate}/`.startsWith(made.endsWith("/") ? made : `${made}/`));
    if (!isPath || generated || CONVENTIONS.has(candidate)) continue;
    if (!candidate.includes("/")) {
      // A bare file name is read against the folder the text is about: it must at least exist somewhere. A bare
      // `.js` name is a build's output (a chunk), never a source file here.
      if (candidate.endsWith(".js")) continue;
      if (!exists(candidate) && !exists(path.join(pageDir, candidate)) && !BASENAMES.has(candidate)) problems.push(`${page}: \`${span}\`: no file of that name`);
      continue;
    }
    if (!exists(candidate) && !exists(path.join(pageDir, candidate))) problems.push(`${page}: \`${span}\`: no such file or folder`);
  }

  // Scripts, in prose and in code blocks alike.
  for (const match of markdown.matchAll(/npm run ([a-z][\w:.-]*)/g)) {
    const script = (match[1] ?? "").replace(/[.:]+$/, "");
    if (!SCRIPTS.has(script)) problems.push(`${page}: \`npm run ${script}\`: no such script in package.json`);
  }
  return [...new Set(problems)];
}

describe("the documentation", () => {
  const words = Object.fromEntries(PAGES.map((page) => [page, wordCount(read(page))]));

  it("counts words as wc -w does", () => {
    expect(wordCount("  one two\tthree\n\n`four`—five  ")).toBe(4);
  });

  it("reads in an evening: README ≤ 1,500 words, benchmarks ≤ 1,500, testing ≤ 2,500, all pages ≤ 15,000", () => {
    const limits: Record<string, number> = { "README.md": 1500, "docs/benchmarks.md": 1500, "docs/testing.md": 2500 };
    const over = Object.entries(limits)
      .filter(([page, limit]) => (words[page] ?? 0) > limit)
      .map(([page, limit]) => `${page}: ${words[page]} words, limit ${limit}`);
    const total = Object.values(words).reduce((sum, count) => sum + count, 0);
    if (total > 15_000) over.push(`README.md + docs/*.md + emulator/README.md: ${total} words, limit 15000`);
    expect(over).toEqual([]);
  });

  it("names only files, folders, scripts and environment variables that exist", () => {
    expect(PAGES.flatMap((page) => missingNames(page, read(page)))).toEqual([]);
  });

  it("catches a name that does not exist, with its page", () => {
    const planted = [
      "See [jobs](jobs.md#no-such-heading), [gone](gone.md), `lib/nowhere.ts`, `scripts/nowhere/`, `nowhere-file.ts`,",
      "`npm run no-such-script`, `NO_SUCH_VARIABLE`, `${ALSO_MISSING}/x` and a real `lib/env.ts`, `SESSION_SECRET`,",
      "`npm run dev`, `.next/standalone`, `lib/platform/<name>.ts` and [a site](https://example.com/x.md).",
    ].join("\n");
    expect(missingNames("docs/planted.md", planted)).toEqual([
      "docs/planted.md: link to jobs.md#no-such-heading: no such heading",
      "docs/planted.md: link to gone.md: no such file",
      "docs/planted.md: `lib/nowhere.ts`: no such file or folder",
      "docs/planted.md: `scripts/nowhere/`: no such file or folder",
      "docs/planted.md: `nowhere-file.ts`: no file of that name",
      "docs/planted.md: `NO_SUCH_VARIABLE`: no code or .env.example reads this variable",
      "docs/planted.md: `ALSO_MISSING`: no code or .env.example reads this variable",
      "docs/planted.md: `npm run no-such-script`: no such script in package.json",
    ]);
  });

  it("finds every heading's anchor as GitHub writes it", () => {
    const anchors = anchorsOf("# A page\n## The inner loop: `npm run test:changed`\n## Again\n## Again\n```\n# not a heading\n```");
    expect([...anchors]).toEqual(["a-page", "the-inner-loop-npm-run-testchanged", "again", "again-1"]);
  });

  it("has at least one page in each place it reads", () => {
    expect(PAGES).toContain("README.md");
    expect(PAGES).toContain("emulator/README.md");
    expect(PAGES.filter((page) => page.startsWith("docs/")).length).toBeGreaterThan(3);
    for (const page of PAGES) expect(statSync(path.join(ROOT, page)).isFile()).toBe(true);
  });
});
