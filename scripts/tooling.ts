/**
 * `tsx scripts/tooling.ts`: makes sure tooling/ (benchmarks, mutation testing, the upgrade proof and the CI-file
 * linter, with Lighthouse and StrykerJS) has its own packages installed, so `npm run bench`, `npm run test:mutation`
 * and `npm run deps:check` work on a clone whose `npm install` never fetched them. It runs `npm ci` in tooling/ when
 * tooling/node_modules is missing or was installed from another tooling/package-lock.json, printing the command,
 * and does nothing otherwise. The app, its dev loop and `npm test` never need tooling/.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const TOOLING = path.join(ROOT, "tooling");
/** Written after a successful install: the digest of the lockfile it installed. */
const STAMP = path.join(TOOLING, "node_modules", ".installed-lock");
/**
 * Tooling's peer dependencies (vitest for Stryker's runner) resolve to the project's own install one folder up: npm
 * would otherwise put a second vitest in tooling/node_modules, apart from the one the tests import.
 */
export const INSTALL_ARGS = ["ci", "--prefix", "tooling", "--legacy-peer-deps", "--no-audit", "--no-fund"];

export function lockDigest(lockfile: string): string {
  return createHash("sha256").update(readFileSync(lockfile)).digest("hex");
}

/** True when tooling/node_modules holds what tooling/package-lock.json names. */
export function toolingInstalled(tooling = TOOLING): boolean {
  const stamp = path.join(tooling, "node_modules", ".installed-lock");
  return existsSync(stamp) && readFileSync(stamp, "utf8").trim() === lockDigest(path.join(tooling, "package-lock.json"));
}

function main(): number {
  if (toolingInstalled()) return 0;
  // Through the npm that runs this script when there is one (npm run ...), else the one on PATH.
  const npmCli = process.env.npm_execpath;
  const [command, args] = npmCli && /\.c?js$/.test(npmCli) ? [process.execPath, [npmCli, ...INSTALL_ARGS]] : ["npm", INSTALL_ARGS];
  console.log(`tooling/ is not installed yet (Lighthouse, StrykerJS, the CI-file linter): npm ${INSTALL_ARGS.join(" ")}`);
  const result = spawnSync(command, args, { cwd: ROOT, stdio: "inherit", shell: command === "npm" && process.platform === "win32" });
  if (result.status !== 0) {
    console.error(`npm ${INSTALL_ARGS.join(" ")} failed (exit ${result.status ?? result.signal}); run it yourself to see why.`);
    return 1;
  }
  writeFileSync(STAMP, `${lockDigest(path.join(TOOLING, "package-lock.json"))}\n`);
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) process.exit(main());
