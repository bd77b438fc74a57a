/**
 * `npm run new:section -- <name> [--scope <scope>]... [--resource]`: writes a working store section (the registry
 * entry, the page in the store frame, the three catalogues' keys, the scope, a browser spec; with --resource the
 * platform resource, its registry line, its test and the emulator's route) and prints each file it wrote. It
 * refuses, writing nothing, a name that is taken or is not a section name, and a scope the platform does not have.
 *
 *   npm run new:section -- returns                                   a page on the app's own data
 *   npm run new:section -- customers --scope customers:read          a page that reads an existing platform resource
 *   npm run new:section -- promo-codes --resource --scope products:read   a new platform resource, end to end
 */
import { parseArgs } from "node:util";
import { generateSection, UNTRANSLATED_FILE } from "./support/section-generator";

const USAGE = "Usage: npm run new:section -- <name> [--scope <scope>]... [--resource]";

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        scope: { type: "string", multiple: true },
        resource: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
      strict: true,
    });
  } catch (error) {
    console.error(`✗ ${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals.length > 1) {
    console.error(`✗ One section at a time: got ${positionals.join(", ")}.\n${USAGE}`);
    return 2;
  }
  // `npm run new:section returns --resource` (without the --) hands the flag to npm, which passes it on as config.
  const resource = values.resource || process.env.npm_config_resource === "true";
  const result = await generateSection(process.cwd(), { name: positionals[0] ?? "", scopes: values.scope, resource });
  if (!result.ok) {
    console.error(`✗ Nothing written:\n  ${result.problems.join("\n  ")}`);
    return 1;
  }
  console.log(`✓ Section "${positionals[0]}" written:`);
  const width = Math.max(...result.files.map((file) => file.path.length));
  for (const file of result.files) console.log(`  ${file.change === "created" ? "+" : "~"} ${file.path.padEnd(width)}  ${file.what}`);
  console.log(
    [
      "",
      `Next: translate its French and Arabic messages (listed in ${UNTRANSLATED_FILE}; take each key out once translated),`,
      "make the page yours, and run the checks: npx tsc --noEmit, npx vitest run tests/unit, and its browser spec.",
    ].join("\n"),
  );
  if (result.newScopes.length > 0) {
    const scopes = result.newScopes.join(" ");
    console.log(
      [
        "",
        `New scope ${scopes}: every store installed before this deploy lacks it (lib/installs/scopes.ts).`,
        "  Its pages show one banner naming this section with a button that runs the consent again; the section is",
        "  locked (navigation, store card, its page) until the merchant approves, and everything else keeps working.",
        "  A merchant who declines keeps the store as it was and can ask again. New installs ask for every scope.",
        `  Production: if SVC_SCOPES is set there, add ${scopes} to it, or the consent can never grant it.`,
        "  Follow it: npm run jobs prints how many stores lack each scope; /api/metrics has store_app_stores_missing_scope.",
        `  Try it: npm run emulator -- withhold-scopes ${scopes}, install a store, npm run emulator -- withhold-scopes,`,
        "  then open the section (or the emulator console's Older scope list).",
      ].join("\n"),
    );
  }
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`✗ new:section failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
