/**
 * `npm run doctor`: checks the configuration this deploy will run with, one line per check, and exits non-zero
 * on any failure so a release pipeline can stop before starting the new version. Run it after `npm run db:migrate`.
 *
 *   npm run doctor                                # the process environment (plus .env files, as `next start` reads them)
 *   npm run doctor -- --service-domain svc.example  # add one of the platform's own domains (repeatable)
 *   npm run doctor -- --skip-platform             # no calls to the platform (sandboxed build step)
 *   npm run doctor -- --file deploy/.env          # that file instead of the .env files `next start` reads
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { formatReport, runDoctor } from "../lib/doctor";
import { redact } from "../lib/log";

/** The files `next start` reads, most specific first; a variable already set is never overwritten. */
const ENV_FILES = [".env.production.local", ".env.local", ".env.production", ".env"];

function parseArguments(argv: string[]): { serviceDomains: string[]; skipPlatform: boolean; envFile: string | null } {
  const serviceDomains: string[] = [];
  let skipPlatform = false;
  let envFile: string | null = null;
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index] ?? "";
    if (argument === "--skip-platform") skipPlatform = true;
    else if (argument === "--file") envFile = argv[(index += 1)] ?? "";
    else if (argument.startsWith("--file=")) envFile = argument.slice("--file=".length);
    else if (argument === "--service-domain") serviceDomains.push(argv[(index += 1)] ?? "");
    else if (argument.startsWith("--service-domain=")) serviceDomains.push(argument.slice("--service-domain=".length));
    else {
      console.error(`Unknown argument ${argument}. Use --service-domain <domain>, --skip-platform or --file <path>.`);
      process.exit(2);
    }
  }
  if (envFile !== null && !existsSync(envFile)) {
    console.error(`No file at ${envFile || "(empty path)"} for --file.`);
    process.exit(2);
  }
  return { serviceDomains: serviceDomains.filter(Boolean), skipPlatform, envFile };
}

async function main(): Promise<void> {
  const options = parseArguments(process.argv.slice(2));
  const loaded = options.envFile ? [options.envFile] : ENV_FILES.filter((file) => existsSync(file));
  for (const file of loaded) process.loadEnvFile(path.resolve(file));
  console.log(`Checking the production configuration${loaded.length ? ` (environment + ${loaded.join(", ")})` : ""}:\n`);
  const report = await runDoctor(process.env, { serviceDomains: options.serviceDomains, skipPlatform: options.skipPlatform });
  console.log(formatReport(report));
  // Exit now: an idle keep-alive socket to the platform must not hold the pipeline for seconds.
  process.exit(report.ok ? 0 : 1);
}

main().catch((error: unknown) => {
  // Messages only: a stack trace could quote a configuration value.
  console.error(`✗ The doctor itself failed: ${String(redact(error instanceof Error ? error.message : String(error)))}`);
  process.exit(1);
});
