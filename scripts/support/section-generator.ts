import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { envValues, parseEnvFile } from "./env-file";
import { nameProblem, namesOf } from "./section-names";
import {
  e2eSource,
  emulatorRouteSource,
  groupMessages,
  pageSource,
  registryEntry,
  resourceSource,
  resourceTestSource,
  type SectionPlan,
} from "./section-templates";

/**
 * `npm run new:section`: every file of a new store section, planned in full and checked before the first write, so a
 * refusal leaves the project exactly as it was. The registry (lib/sections.ts) is read as code, the catalogues as
 * JSON; the other edits are one line each at a place the generator finds by its text, and it refuses rather than
 * guesses when that text has moved.
 */

export const LOCALES = ["en", "fr", "ar"] as const;
const LOCALES_TO_TRANSLATE = ["fr", "ar"] as const;
export const UNTRANSLATED_FILE = "messages/untranslated.json";

export type SectionRequest = { name: string; scopes?: readonly string[]; resource?: boolean };

/** A file written: created, or changed in place. */
export type WrittenFile = { path: string; change: "created" | "changed"; what: string };

export type GenerateResult =
  | {
      ok: true;
      files: WrittenFile[];
      /** Scopes no section asked for before: every store installed earlier lacks them (lib/installs/scopes.ts). */
      newScopes: string[];
    }
  | { ok: false; problems: string[] };

type Registry = { SECTIONS: readonly { slug: string; segment: string; scopes: readonly string[] }[] };

const SECTIONS_END = "] as const satisfies readonly SectionEntry[];";
const SCOPE_KEYS_START = "const SCOPE_KEYS: Record<string, string> = {";
const PIPELINE_TAIL = "  ...scopeOnlyOperations,\n";

type Catalogue = Record<string, unknown>;
type Untranslated = Record<string, string[]>;

/** The platform scopes the app knows by name (lib/merchant-text/scope.ts): the platform's, not ours to invent. */
function knownScopes(scopeSource: string): string[] {
  const start = scopeSource.indexOf(SCOPE_KEYS_START);
  const body = start === -1 ? "" : scopeSource.slice(start, scopeSource.indexOf("};", start));
  return [...body.matchAll(/"([a-z]+:[a-z]+)"\s*:/g)].map((match) => match[1] as string);
}

/** The scopes the emulator's development app registers (emulator/src/fixtures.ts): what development can be granted. */
function emulatorScopes(fixturesSource: string): string[] {
  const line = /export const APP_SCOPES = \[([^\]]*)\]/.exec(fixturesSource)?.[1] ?? "";
  return [...line.matchAll(/"([^"]+)"/g)].map((match) => match[1] as string);
}

function sortedJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

export async function generateSection(root: string, request: SectionRequest): Promise<GenerateResult> {
  const at = (file: string) => path.join(root, file);
  const read = (file: string) => readFile(at(file), "utf8");
  const problems: string[] = [];

  const invalid = nameProblem(request.name);
  if (invalid) return { ok: false, problems: [invalid] };
  const names = namesOf(request.name);
  const resource = request.resource ?? false;
  const scopes = [...new Set(request.scopes?.length ? request.scopes : resource ? [`${names.name}:read`] : [])];
  const plan: SectionPlan = { ...names, scopes, needsConnection: scopes.length > 0 || resource, resource };

  const registry = (await import(pathToFileURL(at("lib/sections.ts")).href)) as Registry;
  const taken = registry.SECTIONS.find((section) => section.slug === plan.name || section.segment === plan.name);
  if (taken) return { ok: false, problems: [`the section "${plan.name}" exists already (lib/sections.ts, slug "${taken.slug}")`] };

  const documented = knownScopes(await read("lib/merchant-text/scope.ts"));
  const granted = emulatorScopes(await read("emulator/src/fixtures.ts"));
  for (const scope of scopes) {
    if (!documented.includes(scope)) {
      problems.push(`${scope} is not a platform scope this app knows (lib/merchant-text/scope.ts): pass --scope with one of ${documented.join(", ")}`);
    } else if (!granted.includes(scope)) {
      problems.push(`the emulator's development app does not register ${scope} (APP_SCOPES in emulator/src/fixtures.ts), so development could not be granted it`);
    }
  }

  const catalogues = Object.fromEntries(await Promise.all(LOCALES.map(async (locale) => [locale, JSON.parse(await read(`messages/${locale}.json`)) as Catalogue]))) as Record<
    (typeof LOCALES)[number],
    Catalogue
  >;
  const shell = catalogues.en.Shell as Record<string, string> | undefined;
  if (shell && plan.key in shell) problems.push(`messages/en.json has a Shell.${plan.key} already`);
  if (plan.group in catalogues.en) problems.push(`messages/en.json has a group "${plan.group}" already`);

  const pagePath = `app/stores/[storeId]/${plan.name}/page.tsx`;
  const e2ePath = `tests/e2e/${plan.name}.spec.ts`;
  const created: [string, string, string][] = [
    [pagePath, pageSource(plan), "the page, in the store frame"],
    [e2ePath, e2eSource(plan), "opens the page in ar and fr at 390 px, axe at 0 serious"],
  ];
  if (resource) {
    created.push(
      [`lib/platform/${plan.name}.ts`, resourceSource(plan), `client.${plan.key}: its schema, type and list`],
      [`emulator/src/api/${plan.name}.ts`, emulatorRouteSource(plan), `the emulator's GET /v1/${plan.name}`],
      [`tests/integration/platform-${plan.name}.test.ts`, resourceTestSource(plan), `client.${plan.key} against the emulator`],
    );
  }
  if (existsSync(at(`app/stores/[storeId]/${plan.name}`))) problems.push(`app/stores/[storeId]/${plan.name}/ exists already`);
  for (const [file] of created) if (existsSync(at(file)) && !file.startsWith(`app/stores/[storeId]/${plan.name}/`)) problems.push(`${file} exists already`);

  // Edits in place, each checked before anything is written.
  const changed: [string, string, string][] = [];
  const sections = await read("lib/sections.ts");
  if (!sections.includes(SECTIONS_END)) problems.push(`lib/sections.ts no longer ends SECTIONS with \`${SECTIONS_END}\`; add the entry by hand`);
  else changed.push(["lib/sections.ts", sections.replace(SECTIONS_END, `${registryEntry(plan)}${SECTIONS_END}`), `the registry entry "${plan.name}"`]);

  const messages = groupMessages(plan);
  for (const locale of LOCALES) {
    const catalogue = catalogues[locale];
    const updated = { ...catalogue, Shell: { ...(catalogue.Shell as Record<string, string>), [plan.key]: plan.title }, [plan.group]: messages };
    changed.push([`messages/${locale}.json`, sortedJson(updated), locale === "en" ? `Shell.${plan.key} and ${plan.group}` : "the same keys, in English until translated"]);
  }
  const untranslated: Untranslated = existsSync(at(UNTRANSLATED_FILE)) ? (JSON.parse(await read(UNTRANSLATED_FILE)) as Untranslated) : {};
  const newKeys = [`Shell.${plan.key}`, ...Object.keys(messages).map((key) => `${plan.group}.${key}`)];
  changed.push([
    UNTRANSLATED_FILE,
    sortedJson(Object.fromEntries(LOCALES_TO_TRANSLATE.map((locale) => [locale, [...(untranslated[locale] ?? []), ...newKeys]]))),
    "the new keys French and Arabic still have in English",
  ]);

  const newScopes = scopes.filter((scope) => !registry.SECTIONS.some((section) => section.scopes.includes(scope)));
  if (newScopes.length) {
    const example = await read(".env.example");
    const current = envValues(parseEnvFile(example)).SVC_SCOPES;
    if (current === undefined) problems.push(".env.example has no SVC_SCOPES line to add the new scope to");
    else {
      const all = [...new Set([...registry.SECTIONS.flatMap((section) => section.scopes), ...scopes])].join(" ");
      changed.push([".env.example", example.replace(/^SVC_SCOPES=.*$/m, `SVC_SCOPES=${all}`), `SVC_SCOPES with ${newScopes.join(" ")}`]);
    }
  }

  if (resource) {
    const resources = await read("lib/platform/resources.ts");
    changed.push(["lib/platform/resources.ts", `${resources.replace(/\n*$/, "\n")}export * from "./${plan.name}";\n`, `client.${plan.key} on every store client`]);
    const pipeline = await read("emulator/src/api/pipeline.ts");
    const lastImport = pipeline.lastIndexOf("\nimport ");
    if (!pipeline.includes(PIPELINE_TAIL) || lastImport === -1) {
      problems.push("emulator/src/api/pipeline.ts no longer lists `...scopeOnlyOperations,` last; add the route by hand");
    } else {
      const afterImport = pipeline.indexOf("\n", lastImport + 1) + 1;
      const withImport = `${pipeline.slice(0, afterImport)}import { ${plan.key}Operations } from "./${plan.name}";\n${pipeline.slice(afterImport)}`;
      changed.push([
        "emulator/src/api/pipeline.ts",
        withImport.replace(PIPELINE_TAIL, `  ...${plan.key}Operations,\n${PIPELINE_TAIL}`),
        `the emulator answers GET /v1/${plan.name}`,
      ]);
    }
  }

  if (problems.length) return { ok: false, problems };

  const writes: PlannedWrite[] = [
    ...changed.map(([file, text, what]) => ({ file, text, what, change: "changed" as const })),
    ...created.map(([file, text, what]) => ({ file, text, what, change: "created" as const })),
  ];
  const failure = await writeAllOrNothing(root, writes);
  if (failure) return { ok: false, problems: [failure] };
  return { ok: true, files: [...created.map(([file, , what]) => ({ path: file, change: "created" as const, what })), ...changed.map(([file, , what]) => ({ path: file, change: "changed" as const, what }))], newScopes };
}

type PlannedWrite = { file: string; text: string; what: string; change: WrittenFile["change"] };

/**
 * Every file or none: a half-written section (an I/O error part-way: a full disk, a folder that cannot be written)
 * left a page or a registry entry that made the re-run refuse ("exists already"). Each text goes first to a
 * temporary file beside its target (same folder, so the rename that follows is atomic and can hardly fail where
 * the write just worked); only when all are written do the renames put them in place. On a failure the temporary
 * files and the folders made for them are removed, and a file already renamed over gets its text back (a created
 * one is removed). Null when all were written, else what went wrong, without a stack.
 */
async function writeAllOrNothing(root: string, writes: readonly PlannedWrite[]): Promise<string | null> {
  const suffix = `.new-section-${randomBytes(6).toString("hex")}.tmp`;
  const staged: { file: string; target: string; temp: string; change: WrittenFile["change"] }[] = [];
  const madeFolders: string[] = [];
  const removeStaged = async () => {
    await Promise.all(staged.map((entry) => rm(entry.temp, { force: true })));
    // Deepest first; each was made by this run (mkdir reports the first folder it had to make).
    for (const folder of madeFolders.reverse()) await rm(folder, { recursive: true, force: true });
  };
  let current = "";
  try {
    for (const write of writes) {
      current = write.file;
      const target = path.join(root, write.file);
      const made = await mkdir(path.dirname(target), { recursive: true });
      if (made) madeFolders.push(made);
      const temp = `${target}${suffix}`;
      await writeFile(temp, write.text, { flag: "wx" });
      staged.push({ file: write.file, target, temp, change: write.change });
    }
  } catch (error) {
    await removeStaged();
    return `could not write ${current} (${describeIoError(error)}); nothing was written`;
  }

  const done: { target: string; before: Buffer | null }[] = [];
  try {
    for (const entry of staged) {
      current = entry.file;
      if (entry.change === "created" && existsSync(entry.target)) throw new Error("it appeared meanwhile");
      // What a changed file held, to put back; a file that did not exist (messages/untranslated.json) is removed.
      const before = entry.change === "changed" && existsSync(entry.target) ? await readFile(entry.target) : null;
      await rename(entry.temp, entry.target);
      done.push({ target: entry.target, before });
    }
  } catch (error) {
    for (const entry of done.reverse()) {
      await (entry.before === null ? rm(entry.target, { force: true }) : writeFile(entry.target, entry.before)).catch(() => undefined);
    }
    await removeStaged();
    return `could not put ${current} in place (${describeIoError(error)}); nothing was written`;
  }
  return null;
}

function describeIoError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code ?? (error instanceof Error ? error.message : String(error));
}
