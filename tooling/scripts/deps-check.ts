/**
 * `npm run deps:check`: the upgrade proof. Bumps the framework's packages (tooling/scripts/support/framework-line.ts: next,
 * react, react-dom and their types, eslint-config-next, next-intl, tailwind, OpenTelemetry) to the latest release
 * of the line each is pinned on, in a scratch copy of this project (the working tree as it is, uncommitted changes
 * included, without node_modules or build output), installs there and runs the suite: `npm test` (type-check,
 * lint, unit and integration tests, production build, browser tests). Nothing in this checkout changes, unless
 * `--record` asks for the run to be written into docs/upgrades.md.
 *
 *   npm run deps:check                   the whole npm test in the copy
 *   npm run deps:check -- --no-e2e       npm test -- --no-e2e, then next build (no browser tests)
 *   npm run deps:check -- --keep         keep the scratch copy (it is kept anyway when a step fails)
 *   npm run deps:check -- --record       write this run's summary into docs/upgrades.md
 *
 * Exits 0 when every step passed, 1 otherwise.
 */
import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { isFramework, planBumps, type Bump } from "./support/framework-line";
import { spawnGroup, stopGroupsOnSignals } from "@/scripts/support/process-group";

const run = promisify(execFile);
const args = process.argv.slice(2);
const noE2e = args.includes("--no-e2e");
const keep = args.includes("--keep");
const record = args.includes("--record");
const root = path.resolve(import.meta.dirname, "../..");

type Manifest = { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
type Checked = Bump & { installed?: string };
type StepResult = { name: string; ok: boolean; seconds: number };

const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0)}s`;
const load = () => os.loadavg()[0]!.toFixed(1);
const say = (line: string) => console.log(`[deps:check ${elapsed()}, load ${load()}] ${line}`);

/** The working tree as git sees it: tracked and new files, minus what .gitignore excludes (node_modules, builds). */
async function copyProject(into: string): Promise<number> {
  const { stdout } = await run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: root, maxBuffer: 64 * 2 ** 20 });
  const files = stdout.split("\0").filter(Boolean);
  let copied = 0;
  for (const file of files) {
    await mkdir(path.dirname(path.join(into, file)), { recursive: true });
    try {
      await copyFile(path.join(root, file), path.join(into, file));
      copied++;
    } catch (error) {
      // A tracked file deleted in the working tree: the copy follows the working tree.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
  return copied;
}

/** One field of a package as the registry has it (`npm view`); undefined when the package lacks the field. */
async function npmView(spec: string, field: string): Promise<unknown> {
  const { stdout } = await run("npm", ["view", spec, field, "--json"], { cwd: root, maxBuffer: 64 * 2 ** 20 });
  return stdout.trim() ? (JSON.parse(stdout) as unknown) : undefined;
}

async function publishedVersions(name: string): Promise<string[]> {
  const versions = (await npmView(name, "versions")) as string[] | string;
  return Array.isArray(versions) ? versions : [versions];
}

/** Chooses each framework package's version and writes them into the copy's package.json. */
async function bumpManifest(dir: string): Promise<Bump[]> {
  const file = path.join(dir, "package.json");
  const manifest = JSON.parse(await readFile(file, "utf8")) as Manifest;
  const sections = [manifest.dependencies ?? {}, manifest.devDependencies ?? {}];
  const pins: Record<string, string> = {};
  for (const section of sections) for (const [name, pinned] of Object.entries(section)) if (isFramework(name)) pins[name] = pinned;
  const published: Record<string, string[]> = {};
  for (const name of Object.keys(pins)) published[name] = await publishedVersions(name);
  const peers = new Map<string, Promise<Record<string, string>>>();
  const peersOf = (name: string, version: string) => {
    const key = `${name}@${version}`;
    if (!peers.has(key)) peers.set(key, npmView(key, "peerDependencies").then((value) => (value ?? {}) as Record<string, string>));
    return peers.get(key)!;
  };
  const bumps = await planBumps(pins, published, peersOf);
  for (const bump of bumps) for (const section of sections) if (bump.name in section) section[bump.name] = bump.to;
  await writeFile(file, `${JSON.stringify(manifest, null, 2)}\n`);
  return bumps;
}

/** Set on Ctrl-C or a kill: the step that ends because of it must not be followed by the next one. */
let signalled = false;
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.once(signal, () => (signalled = true));

async function step(name: string, dir: string, command: string, commandArgs: string[], env: Record<string, string> = {}): Promise<StepResult> {
  if (signalled) return { name, ok: false, seconds: 0 };
  say(`▶ ${name}: ${command} ${commandArgs.join(" ")}`);
  const stepStart = Date.now();
  const code = await spawnGroup(command, commandArgs, { cwd: dir, stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, ...env } }).exited;
  const seconds = (Date.now() - stepStart) / 1000;
  say(`${code === 0 ? "✓" : "✗"} ${name} (${seconds.toFixed(0)}s${code === 0 ? "" : `, exit ${code}`})`);
  return { name, ok: code === 0, seconds };
}

async function installedVersion(dir: string, name: string): Promise<string | undefined> {
  try {
    return (JSON.parse(await readFile(path.join(dir, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;
  } catch {
    return undefined;
  }
}

function summary(bumps: Checked[], steps: StepResult[], loads: { before: string; after: string }): string[] {
  const passed = steps.length > 0 && steps.every((result) => result.ok);
  const moved = bumps.filter((bump) => bump.from !== bump.to);
  return [
    `${passed ? "Passed" : "Failed"} in ${((Date.now() - started) / 60_000).toFixed(1)} minutes on Node ${process.version}, ${os.cpus().length} cores, load average ${loads.before} before and ${loads.after} after (1 min)${noE2e ? ", without the browser tests (`--no-e2e`)" : ""}.`,
    "",
    moved.length ? `${moved.length} of ${bumps.length} framework packages moved:` : `All ${bumps.length} framework packages were already at the latest of their line:`,
    "",
    "| package | pinned | checked | installed | held back by a peer range |",
    "|---|---|---|---|---|",
    ...bumps.map(
      (bump) =>
        `| \`${bump.name}\` | ${bump.from} | ${bump.to === bump.from ? "=" : `**${bump.to}**`} | ${bump.installed ?? "?"} | ${bump.heldBy?.join("; ") ?? ""} |`,
    ),
    "",
    "| step | result | time |",
    "|---|---|---|",
    ...steps.map((result) => `| ${result.name} | ${result.ok ? "passed" : "**failed**"} | ${result.seconds.toFixed(0)} s |`),
  ];
}

const RECORD_START = "<!-- deps:check last run: written by `npm run deps:check -- --record` -->";
const RECORD_END = "<!-- /deps:check last run -->";

async function recordRun(lines: string[]): Promise<void> {
  const file = path.join(root, "docs", "upgrades.md");
  const doc = await readFile(file, "utf8");
  const start = doc.indexOf(RECORD_START);
  const end = doc.indexOf(RECORD_END);
  if (start === -1 || end < start) throw new Error(`docs/upgrades.md lacks the markers ${RECORD_START} … ${RECORD_END}`);
  const stamp = `_${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC._`;
  await writeFile(file, `${doc.slice(0, start + RECORD_START.length)}\n${[stamp, "", ...lines].join("\n")}\n${doc.slice(end)}`);
  say("✓ written into docs/upgrades.md");
}

async function main(): Promise<void> {
  const loadBefore = load();
  stopGroupsOnSignals({ beforeExit: () => console.error("\n✗ deps:check stopped by a signal; its steps were stopped too") });
  const dir = await mkdtemp(path.join(os.tmpdir(), "deps-check-"));
  say(`scratch copy: ${dir}`);
  say(`copied ${await copyProject(dir)} files (the working tree, without ignored files)`);

  say("looking up the latest release of each framework package's line on the registry");
  const bumps: Checked[] = await bumpManifest(dir);
  const overrides = (JSON.parse(await readFile(path.join(dir, "package.json"), "utf8")) as { overrides?: Record<string, unknown> }).overrides ?? {};
  // An override holds a package whatever the bumped ones ask for: the first run failed on exactly that.
  if (Object.keys(overrides).length) say(`⚠ package.json overrides still pin ${Object.keys(overrides).join(", ")}: a bump may need them moved or removed`);
  for (const bump of bumps) {
    const held = bump.heldBy ? ` (a newer release of its line is refused: ${bump.heldBy.join(", ")})` : "";
    const moved = bump.to === bump.from ? (bump.heldBy ? " stays" : " (already the latest of its line)") : ` → ${bump.to}`;
    say(`  ${bump.name}: ${bump.from}${moved}${held}`);
  }

  const steps: StepResult[] = [];
  // CI=true makes an install script that fails (e.g. a patch that no longer applies) fail the install.
  steps.push(await step("install", dir, "npm", ["install", "--no-audit", "--no-fund"], { CI: "true" }));
  if (steps.at(-1)!.ok) {
    for (const bump of bumps) bump.installed = await installedVersion(dir, bump.name);
    const wrong = bumps.filter((bump) => bump.installed !== bump.to);
    if (wrong.length) say(`✗ installed versions differ: ${wrong.map((bump) => `${bump.name} ${bump.installed ?? "missing"} (wanted ${bump.to})`).join(", ")}`);
    steps.push({ name: "installed versions are the checked ones", ok: wrong.length === 0, seconds: 0 });
    if (noE2e) {
      steps.push(await step("npm test -- --no-e2e (type-check, lint, unit and integration tests)", dir, "npm", ["test", "--", "--no-e2e"]));
      steps.push(await step("production build", dir, "npx", ["next", "build"], { NEXT_DIST_DIR: ".next-test" }));
    } else {
      steps.push(await step("npm test (type-check, lint, unit and integration tests, build, browser tests)", dir, "npm", ["test"]));
    }
  }

  const lines = summary(bumps, steps, { before: loadBefore, after: load() });
  console.log(`\n${lines.join("\n")}\n`);
  const passed = steps.every((result) => result.ok);
  if (record) await recordRun(lines);
  if (passed && !keep) {
    await rm(dir, { recursive: true, force: true });
    say("scratch copy removed");
  } else {
    say(`scratch copy kept: ${dir} (its package.json and package-lock.json hold the bumped versions)`);
  }
  process.exit(passed ? 0 : 1);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
