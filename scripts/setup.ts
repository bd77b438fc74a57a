/**
 * `npm run setup`: points the template at a platform. Asks for (or takes as flags) the app's public URL, the
 * platform's hosts and the app's credentials from the developer console, generates the two secrets the app keeps
 * for itself, sets SVC_SCOPES to the scopes its pages use (lib/sections.ts), writes them into .env without losing
 * anything already there, prints exactly what to register in the developer console, and runs the doctor on the
 * result.
 *
 *   npm run setup                                    questions, with the current .env values as answers
 *   npm run setup -- --yes --app-url https://orders.example.com --auth-url https://... --api-url https://... \
 *     --client-id svcapp_... --client-secret svcas_... --webhook-secret ...
 *
 * Never replaces a value already in .env without asking; `--yes` answers yes to every question, so a flag replaces
 * the value it names. Generated secrets are never replaced once set: a new TOKEN_ENCRYPTION_KEY would make every
 * stored token unreadable (rotate it with `npm run tokens:rotate`). Lines it does not know stay as they are.
 */
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, readFile, writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { formatReport, isLocalPlatform, runDoctor } from "../lib/doctor";
import { PAGE_SCOPES } from "../lib/sections";
import { checkVariables } from "../lib/doctor/env-checks";
import { checkRedirectUri, checkWebhookUrl } from "../lib/doctor/url-checks";
import { redirectUriOf, webhookUrlOf } from "../lib/webhook-url/app-urls";
import { serviceDomainsOf } from "../lib/webhook-url/domains";
import { envValues, parseEnvFile, serializeEnvFile, setEnvValues } from "./support/env-file";
import { createPrompter, type Prompter } from "./support/prompt";

/** What setup asks for, in order: each entry is a variable of lib/env.ts and the doctor, and the flag that sets it. */
const ASKED = [
  { name: "SVC_AUTH_URL", flag: "auth-url", question: "The platform's auth host ({auth_url})", secret: false },
  { name: "SVC_API_URL", flag: "api-url", question: "The platform's API host ({base_url}, without /v1)", secret: false },
  { name: "APP_URL", flag: "app-url", question: "The app's public URL (its origin, e.g. https://orders.example.com)", secret: false },
  { name: "SVC_CLIENT_ID", flag: "client-id", question: "Client id (developer console)", secret: false },
  { name: "SVC_CLIENT_SECRET", flag: "client-secret", question: "Client secret (developer console)", secret: true },
  { name: "SVC_WEBHOOK_SECRET", flag: "webhook-secret", question: "Webhook signing secret (developer console)", secret: true },
] as const;

const GENERATED = {
  SESSION_SECRET: () => randomBytes(48).toString("base64url"),
  TOKEN_ENCRYPTION_KEY: () => randomBytes(32).toString("base64"),
} as const;

const { values: flags } = parseArgs({
  options: {
    yes: { type: "boolean", short: "y", default: false },
    file: { type: "string", default: ".env" },
    "skip-doctor": { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
    ...Object.fromEntries(ASKED.map((item) => [item.flag, { type: "string" as const }])),
  },
  strict: true,
});

const USAGE = `Usage: npm run setup -- [--yes] [--file .env] [--skip-doctor]
  ${ASKED.map((item) => `--${item.flag} <value>`).join("\n  ")}`;

/**
 * The doctor's verdict on one variable, with the rest of the configuration around it. APP_URL also has to make
 * a redirect URI and a webhook URL the console accepts (https on 443, a public host name): asked after the
 * platform's hosts, so that against the local emulator those rules are only the doctor's warnings.
 */
function problemOf(name: string, candidate: Record<string, string>): string | null {
  const localPlatform = isLocalPlatform(candidate);
  const { checks } = checkVariables(candidate);
  const line = checks.find((check) => check.id === `env.${name}`);
  if (line && line.status === "fail") return `${name} ${line.detail}${line.fix ? ` (${line.fix})` : ""}`;
  if (name === "APP_URL" && line?.status === "pass") {
    const appUrl = (candidate.APP_URL ?? "").replace(/\/+$/, "");
    const serviceDomains = serviceDomainsOf([candidate.SVC_AUTH_URL, candidate.SVC_API_URL]);
    for (const check of [checkRedirectUri(appUrl), checkWebhookUrl(appUrl, { serviceDomains, localPlatform })]) {
      if (check.status === "fail") return `APP_URL: ${check.detail}${check.fix ? ` (${check.fix})` : ""}`;
    }
  }
  return null;
}

/** Shown instead of a secret: enough to recognise it, never enough to use it. */
function masked(value: string): string {
  return value.length <= 12 ? "****" : `${value.slice(0, value.indexOf("_") + 1 || 4)}…${value.slice(-4)}`;
}

/**
 * The scopes the app asks the merchant for: exactly those its sections' pages use (lib/sections.ts), so a section
 * added with `npm run new:section` is asked for here too. An SVC_SCOPES already in .env is kept unless it lacks one
 * of them and the developer agrees to the page scopes instead.
 */
async function decideScopes(prompter: Prompter | null, current: string | undefined): Promise<string> {
  const wanted = PAGE_SCOPES.join(" ");
  if (!current) return wanted;
  const missing = PAGE_SCOPES.filter((scope) => !current.split(/\s+/).includes(scope));
  if (missing.length === 0) return current;
  const replace = flags.yes || (prompter ? await prompter.confirm(`  SVC_SCOPES in ${flags.file} lacks ${missing.join(", ")}, which the pages use. Ask for "${wanted}" instead?`) : false);
  if (!replace) console.log(`  kept the SVC_SCOPES already in ${flags.file}: the pages that need ${missing.join(", ")} will be refused`);
  return replace ? wanted : current;
}

async function decide(prompter: Prompter | null, current: Record<string, string>): Promise<Record<string, string> | null> {
  const chosen: Record<string, string> = { ...current };
  const problems: string[] = [];
  for (const item of ASKED) {
    const existing = current[item.name];
    const given = (flags as Record<string, string | boolean | undefined>)[item.flag] as string | undefined;
    let value = given ?? existing;
    if (prompter && given === undefined) {
      const shown = existing ? (item.secret ? masked(existing) : existing) : "";
      for (;;) {
        const answer = (await prompter.ask(`${item.question}${shown ? ` [${shown}]` : ""}: `, { secret: item.secret })).trim();
        value = answer || existing;
        const problem = value ? problemOf(item.name, { ...chosen, [item.name]: value }) : `${item.name} is required`;
        if (!problem) break;
        console.log(`  ✗ ${problem}`);
      }
    }
    if (!value) {
      problems.push(`${item.name} is missing: pass --${item.flag} <value>`);
      continue;
    }
    if (existing && value !== existing) {
      const replace = flags.yes || (prompter ? await prompter.confirm(`  Replace the ${item.name} already in ${flags.file}?`) : false);
      if (!replace) {
        console.log(`  kept the ${item.name} already in ${flags.file}`);
        value = existing;
      }
    }
    chosen[item.name] = value;
  }
  if (problems.length) {
    console.error(`✗ Nothing written:\n  ${problems.join("\n  ")}\n\n${USAGE}`);
    return null;
  }
  const refused = ASKED.map((item) => problemOf(item.name, chosen)).filter((problem): problem is string => problem !== null);
  if (refused.length) {
    console.error(`✗ Nothing written; fix these and run it again:\n  ${refused.join("\n  ")}`);
    return null;
  }
  chosen.SVC_SCOPES = await decideScopes(prompter, current.SVC_SCOPES);
  for (const [name, generate] of Object.entries(GENERATED)) {
    const existing = current[name];
    if (existing && !problemOf(name, { ...chosen, [name]: existing })) continue;
    if (existing) {
      // A broken value cannot be working for anyone; still, it is theirs to give up.
      const replace = flags.yes || (prompter ? await prompter.confirm(`  ${name} in ${flags.file} is not usable. Generate a new one?`) : false);
      if (!replace) {
        problems.push(`${name} in ${flags.file} is not usable`);
        continue;
      }
    }
    chosen[name] = generate();
    console.log(`  generated ${name}`);
  }
  problems.push(...Object.keys(GENERATED).map((name) => problemOf(name, chosen)).filter((problem): problem is string => problem !== null));
  if (problems.length) {
    console.error(`✗ Nothing written; fix these and run it again:\n  ${problems.join("\n  ")}`);
    return null;
  }
  return chosen;
}

async function main(): Promise<number> {
  if (flags.help) {
    console.log(USAGE);
    return 0;
  }
  const path = flags.file;
  const file = parseEnvFile(existsSync(path) ? await readFile(path, "utf8") : "");
  const current = envValues(file);
  const prompter = flags.yes ? null : createPrompter();
  if (!flags.yes && !prompter) {
    console.error("✗ No terminal to ask questions on: pass every value as a flag with --yes (npm run setup -- --help).");
    return 2;
  }
  console.log(`Setting up ${path} for the platform. Press Enter to keep the value in brackets.\n`);
  const chosen = await decide(prompter, current).finally(() => prompter?.close());
  if (!chosen) return 1;

  const names = [...ASKED.map((item) => item.name), "SVC_SCOPES", ...Object.keys(GENERATED)];
  const updates = Object.fromEntries(names.filter((name) => chosen[name] !== current[name]).map((name) => [name, chosen[name] ?? ""]));
  const updated = setEnvValues(file, updates, `Written by npm run setup on ${new Date().toISOString().slice(0, 10)}`);
  await writeFile(path, serializeEnvFile(updated), { mode: 0o600 });
  // The mode above applies only to a new file; an existing one may have been readable by everyone.
  await chmod(path, 0o600);
  const changed = Object.keys(updates);
  console.log(`\n✓ ${path}: ${changed.length ? `set ${changed.join(", ")}` : "nothing to change"}${file.lines.length ? "; every other line kept" : ""}.`);

  const appUrl = (chosen.APP_URL ?? "").replace(/\/+$/, "");
  const local = isLocalPlatform(chosen);
  const consoleUrl = local ? `${(chosen.SVC_AUTH_URL ?? "").replace(/\/+$/, "")}/console` : "the developer console";
  console.log(
    [
      "",
      `Register these in ${consoleUrl}, exactly as written (character for character):`,
      `  Redirect URI:  ${redirectUriOf(appUrl)}`,
      `  Webhook URL:   ${webhookUrlOf(appUrl)}`,
      `  Scopes:        ${chosen.SVC_SCOPES} (the app must register each one it asks for)`,
      "Then, with the app deployed and answering at that URL, press Save and then Verify on the webhook: the console",
      "sends one signed webhook.verify, and real events go only to a verified URL.",
      ...(local ? ["(The emulator registers both URLs from its --app-url; its console has the Verify button.)"] : []),
      "",
    ].join("\n"),
  );

  if (flags["skip-doctor"]) return 0;
  console.log("Running the doctor on the result:\n");
  const report = await runDoctor({ ...process.env, ...envValues(updated) });
  console.log(formatReport(report));
  return report.ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    // Messages only: a stack trace could quote a value.
    console.error(`✗ setup failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
