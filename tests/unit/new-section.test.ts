import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, type Dirent } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import ts from "typescript";
import { afterEach, describe, expect, it } from "vitest";
import { generateSection } from "../../scripts/support/section-generator";
import { envValues, parseEnvFile } from "../../scripts/support/env-file";

/**
 * `npm run new:section` run into a temporary copy of the files it reads and edits: what it writes for a plain
 * section, a section with a new scope and a new platform resource, and what it refuses without writing anything.
 * (The written section was also built, type-checked and opened in the browser on a copy of the project: see
 * docs/architecture.md, "Adding a section".)
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const READ_AND_EDITED = [
  "lib/sections.ts",
  "lib/merchant-text/scope.ts",
  "lib/platform/resources.ts",
  "emulator/src/fixtures.ts",
  "emulator/src/api/pipeline.ts",
  "messages/en.json",
  "messages/fr.json",
  "messages/ar.json",
  "messages/untranslated.json",
  ".env.example",
];

const copies: string[] = [];

function projectCopy(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "new-section-"));
  copies.push(dir);
  for (const file of READ_AND_EDITED) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    cpSync(path.join(ROOT, file), path.join(dir, file));
  }
  return dir;
}

function snapshot(dir: string): Record<string, string> {
  return Object.fromEntries(READ_AND_EDITED.map((file) => [file, readFileSync(path.join(dir, file), "utf8")]));
}

/** Every file under `dir`, relative to it, with forward slashes. */
function filesUnder(dir: string): string[] {
  return (readdirSync(dir, { recursive: true, withFileTypes: true }) as Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
    .sort();
}

const json = (dir: string, file: string) => JSON.parse(readFileSync(path.join(dir, file), "utf8")) as Record<string, Record<string, unknown>>;

/** Syntax errors of a written TypeScript file (types are the type-check's job on a real copy). */
function syntaxErrors(file: string, text: string): string[] {
  const output = ts.transpileModule(text, { fileName: file, reportDiagnostics: true, compilerOptions: { jsx: ts.JsxEmit.Preserve } });
  return (output.diagnostics ?? []).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
}

afterEach(() => {
  for (const dir of copies.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("npm run new:section", () => {
  it("writes a section on the app's own data: registry entry, page, the three catalogues, the untranslated list, a browser spec", async () => {
    const dir = projectCopy();
    const result = await generateSection(dir, { name: "returns" });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.files.map((file) => `${file.change} ${file.path}`)).toEqual([
      "created app/stores/[storeId]/returns/page.tsx",
      "created tests/e2e/returns.spec.ts",
      "changed lib/sections.ts",
      "changed messages/en.json",
      "changed messages/fr.json",
      "changed messages/ar.json",
      "changed messages/untranslated.json",
    ]);

    const registry = readFileSync(path.join(dir, "lib/sections.ts"), "utf8");
    expect(registry).toContain('slug: "returns",\n    segment: "returns",\n    label: "Shell.returns",\n    title: "Returns.title",\n    scopes: [],\n    needsConnection: false,');
    const page = readFileSync(path.join(dir, "app/stores/[storeId]/returns/page.tsx"), "utf8");
    expect(page).toContain('export default storePage(\n  "returns",');
    expect(page).toContain('sectionMetadata("returns")');
    expect(syntaxErrors("page.tsx", page)).toEqual([]);
    const spec = readFileSync(path.join(dir, "tests/e2e/returns.spec.ts"), "utf8");
    expect(spec).toContain("ar: { dir: \"rtl\"");
    expect(spec).toContain("setViewportSize({ width: 390");
    expect(syntaxErrors("returns.spec.ts", spec)).toEqual([]);

    // Every key in every locale, English text everywhere until translated, and the list of what waits for it.
    const en = json(dir, "messages/en.json");
    expect(en.Shell?.returns).toBe("Returns");
    expect(en.Returns).toMatchObject({ title: "Returns", emptyTitle: "No returns yet" });
    for (const locale of ["fr", "ar"]) {
      const catalogue = json(dir, `messages/${locale}.json`);
      expect(catalogue.Returns).toEqual(en.Returns);
      expect(catalogue.Shell?.returns).toBe("Returns");
      expect(catalogue.Shell?.orders, "existing messages kept").toBe(json(ROOT, `messages/${locale}.json`).Shell?.orders);
    }
    const untranslated = json(dir, "messages/untranslated.json") as unknown as Record<string, string[]>;
    expect(untranslated.fr).toEqual(expect.arrayContaining(["Shell.returns", "Returns.title", "Returns.intro", "Returns.emptyTitle", "Returns.emptyBody"]));
    expect(untranslated.ar).toEqual(untranslated.fr);
    // No scope of its own: .env.example is left alone.
    expect(readFileSync(path.join(dir, ".env.example"), "utf8")).toBe(readFileSync(path.join(ROOT, ".env.example"), "utf8"));
  });

  it("adds a scope no section had to .env.example, and asks for a connection", async () => {
    const dir = projectCopy();
    const result = await generateSection(dir, { name: "messages-log", scopes: ["whatsapp:read"] });
    // The emulator's development app does not register whatsapp:read: development could never be granted it.
    expect(result).toEqual({ ok: false, problems: [expect.stringContaining("does not register whatsapp:read")] });

    const before = envValues(parseEnvFile(readFileSync(path.join(dir, ".env.example"), "utf8"))).SVC_SCOPES?.split(" ") ?? [];
    expect(before).not.toContain("orders:write");
    const granted = await generateSection(dir, { name: "clients", scopes: ["orders:write"] });
    expect(granted.ok).toBe(true);
    // The checklist then says what stores installed before meet (npm run new:section prints it for these).
    expect(granted.ok && granted.newScopes).toEqual(["orders:write"]);
    const scopes = envValues(parseEnvFile(readFileSync(path.join(dir, ".env.example"), "utf8"))).SVC_SCOPES?.split(" ");
    expect(scopes).toEqual([...before, "orders:write"]);
    expect(readFileSync(path.join(dir, "lib/sections.ts"), "utf8")).toContain('scopes: ["orders:write"],\n    needsConnection: true,');
    const page = readFileSync(path.join(dir, "app/stores/[storeId]/clients/page.tsx"), "utf8");
    expect(page).toContain('{ readOnly: "Clients.readOnly", loadFailed: "Clients.loadFailed" }');
    expect(json(dir, "messages/en.json").Clients).toHaveProperty("loadFailed");
  });

  it("with --resource, writes the platform resource, its registry line, its test and the emulator's route", async () => {
    const dir = projectCopy();
    const result = await generateSection(dir, { name: "promo-codes", resource: true, scopes: ["products:read"] });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.files.filter((file) => file.change === "created").map((file) => file.path)).toEqual([
      "app/stores/[storeId]/promo-codes/page.tsx",
      "tests/e2e/promo-codes.spec.ts",
      "lib/platform/promo-codes.ts",
      "emulator/src/api/promo-codes.ts",
      "tests/integration/platform-promo-codes.test.ts",
    ]);
    expect(result.files.filter((file) => file.change === "changed").map((file) => file.path)).toEqual(
      expect.arrayContaining(["lib/platform/resources.ts", "emulator/src/api/pipeline.ts"]),
    );
    const resource = readFileSync(path.join(dir, "lib/platform/promo-codes.ts"), "utf8");
    expect(resource).toContain("export const promoCodes = defineResource(");
    expect(resource).toContain('call("GET", "/v1/promo-codes"');
    expect(readFileSync(path.join(dir, "lib/platform/resources.ts"), "utf8").trimEnd().split("\n").at(-1)).toBe('export * from "./promo-codes";');
    const pipeline = readFileSync(path.join(dir, "emulator/src/api/pipeline.ts"), "utf8");
    expect(pipeline).toContain('import { promoCodesOperations } from "./promo-codes";');
    expect(pipeline).toContain("  ...promoCodesOperations,\n  ...scopeOnlyOperations,\n");
    const route = readFileSync(path.join(dir, "emulator/src/api/promo-codes.ts"), "utf8");
    expect(route).toContain('path: "/v1/promo-codes", scope: "products:read"');
    expect(readFileSync(path.join(dir, "app/stores/[storeId]/promo-codes/page.tsx"), "utf8")).toContain("interactivePlatform(storeId).promoCodes.list(");
    for (const file of result.files.filter((written) => /\.tsx?$/.test(written.path))) {
      expect(syntaxErrors(file.path, readFileSync(path.join(dir, file.path), "utf8")), file.path).toEqual([]);
    }
    // Its own scope already requested (categories): .env.example is left alone.
    expect(result.files.map((file) => file.path)).not.toContain(".env.example");
  });

  it("refuses, writing nothing, a name that exists, a name that is not one, a folder in the way and a scope the platform lacks", async () => {
    const dir = projectCopy();
    const before = snapshot(dir);
    const refusals: [Parameters<typeof generateSection>[1], RegExp][] = [
      [{ name: "orders" }, /the section "orders" exists already/],
      [{ name: "Returns" }, /not a section name/],
      [{ name: "../returns" }, /not a section name/],
      [{ name: "re turns" }, /not a section name/],
      [{ name: "returns-" }, /not a section name/],
      [{ name: "" }, /needs a name/],
      [{ name: "a".repeat(33) }, /longer than 32/],
      [{ name: "delete" }, /reserved word/],
      [{ name: "status" }, /has a group "Status" already/],
      [{ name: "language" }, /Shell\.language already/],
      [{ name: "returns", scopes: ["returns:read"] }, /returns:read is not a platform scope/],
      [{ name: "returns", resource: true }, /returns:read is not a platform scope/],
      [{ name: "whoami", resource: true, scopes: ["orders:read"] }, /lib\/platform\/whoami\.ts exists already/],
    ];
    // lib/platform/whoami.ts, a resource with no section, exists in the project: the copy has it too.
    cpSync(path.join(ROOT, "lib/platform/whoami.ts"), path.join(dir, "lib/platform/whoami.ts"));
    for (const [request, problem] of refusals) {
      const result = await generateSection(dir, request);
      expect(result.ok, request.name).toBe(false);
      if (!result.ok) expect(result.problems.join("\n"), request.name).toMatch(problem);
    }
    mkdirSync(path.join(dir, "app/stores/[storeId]/returns"), { recursive: true });
    const inTheWay = await generateSection(dir, { name: "returns" });
    expect(inTheWay).toEqual({ ok: false, problems: ["app/stores/[storeId]/returns/ exists already"] });
    expect(snapshot(dir)).toEqual(before);
    expect(existsSync(path.join(dir, "tests/e2e/returns.spec.ts"))).toBe(false);
  });

  it("writes all or nothing: a write failing part-way leaves no file behind, and the re-run writes the section", async () => {
    const dir = projectCopy();
    const before = snapshot(dir);
    // A real failing write, the last one the run makes: a file where the browser spec's folder must be (ENOTDIR or
    // EEXIST from the file system itself), after the registry, the catalogues and the page were written aside.
    mkdirSync(path.join(dir, "tests"), { recursive: true });
    writeFileSync(path.join(dir, "tests/e2e"), "in the way");
    const failed = await generateSection(dir, { name: "returns" });
    expect(failed).toEqual({ ok: false, problems: [expect.stringMatching(/^could not write tests\/e2e\/returns\.spec\.ts \(E\w+\); nothing was written$/)] });
    expect(snapshot(dir)).toEqual(before);
    expect(existsSync(path.join(dir, "app")), "the page's folders, made for it, are gone").toBe(false);
    expect(filesUnder(dir).filter((file) => !READ_AND_EDITED.includes(file))).toEqual(["tests/e2e"]);

    rmSync(path.join(dir, "tests/e2e"));
    const again = await generateSection(dir, { name: "returns" });
    expect(again.ok).toBe(true);
    expect(readFileSync(path.join(dir, "lib/sections.ts"), "utf8")).toContain('slug: "returns"');
    expect(filesUnder(dir).filter((file) => file.includes(".tmp"))).toEqual([]);
  });

  it("writes only files the checklist of docs/extending.md and docs/architecture.md name", async () => {
    const dir = projectCopy();
    const result = await generateSection(dir, { name: "promo-codes", resource: true, scopes: ["orders:write"] });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const extending = readFileSync(path.join(ROOT, "docs/extending.md"), "utf8");
    const from = extending.indexOf("## Add a store section");
    const to = extending.indexOf("## Add a platform operation");
    expect(from, "docs/extending.md has the store section's checklist").toBeGreaterThanOrEqual(0);
    const checklist = extending.slice(from, to);
    const architecture = readFileSync(path.join(ROOT, "docs/architecture.md"), "utf8");
    const walkthrough = architecture.slice(architecture.indexOf("## Adding a section"));
    for (const file of result.files.map((written) => written.path.replace("promo-codes", "<name>"))) {
      expect(checklist, `docs/extending.md names ${file}`).toContain(`\`${file}\``);
      expect(walkthrough, `docs/architecture.md names ${file}`).toContain(`\`${file}\``);
    }
  });

  it("prints every file it wrote, and refuses a second run of the same name with exit code 1", async () => {
    const dir = projectCopy();
    const run = (...args: string[]) =>
      promisify(execFile)(process.execPath, [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), path.join(ROOT, "scripts/new-section.ts"), ...args], { cwd: dir }).then(
        (done) => ({ code: 0, ...done }),
        (failed: { code: number; stdout: string; stderr: string }) => failed,
      );
    const first = await run("returns");
    expect(first.code).toBe(0);
    for (const file of ["app/stores/[storeId]/returns/page.tsx", "tests/e2e/returns.spec.ts", "lib/sections.ts", "messages/ar.json"]) expect(first.stdout).toContain(file);
    const second = await run("returns");
    expect(second.code).toBe(1);
    expect(second.stderr).toContain('Nothing written:\n  the section "returns" exists already');
  }, 30_000);
});
