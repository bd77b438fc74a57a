/**
 * `npm run emulator -- <command>`: `start` (the default) runs the emulator; every other command calls a running
 * emulator's control API on EMULATOR_PORT. Standalone on purpose: it reads its own flags and EMULATOR_PORT only.
 */
import { DEV_APP } from "@/lib/dev-app";
import { startEmulator } from "./index";
import { DEFAULT_DATA_FILE } from "./store";

type Flags = Record<string, string | true>;

function parseArgs(argv: string[]): { command: string; positional: string[]; flags: Flags } {
  const flags: Flags = {};
  const positional: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index]!;
    if (arg.startsWith("--")) {
      const [name, inline] = arg.slice(2).split("=", 2) as [string, string | undefined];
      const next = argv[index + 1];
      if (inline !== undefined) flags[name] = inline;
      else if (next !== undefined && !next.startsWith("--") && !BOOLEAN_FLAGS.has(name)) {
        flags[name] = next;
        index += 1;
      } else flags[name] = true;
    } else positional.push(arg);
  }
  return { command: positional.shift() ?? "start", positional, flags };
}

const BOOLEAN_FLAGS = new Set(["memory", "no-auto-tick", "strict-webhook-urls", "no-oauth-limits", "help"]);

const USAGE = `Usage: npm run emulator -- [command] [flags]

  start (default)        run the emulator
    --port N             port (default EMULATOR_PORT or ${DEV_APP.emulatorPort})
    --app-url URL        the app's origin (default ${DEV_APP.appUrl})
    --memory             keep state in memory only
    --data-file PATH     state file (default ${DEFAULT_DATA_FILE})
    --time-scale N       emulated seconds per real second (default 1; npm run dev passes 12)
    --no-auto-tick       do not run the order checker and dispatcher every emulated minute
    --strict-webhook-urls  refuse http://localhost webhook URLs like the real console
    --no-oauth-limits    turn off the OAuth endpoints' per-client rate limits

  reset                          restore the fixtures
  state                          summary of merchants, stores, app and installs
  place-order --store N [--json '{...}']   place a pending test order
  set-status --order N --status S          change an order's status
  uninstall --store N            uninstall the app from a store
  app-status S                   draft | in_review | approved | rejected | suspended
  withhold-scopes [SCOPE...]     next consents grant the older scope list, without these (none: off)
  plan --store N --plan P [--expires ISO]  change a store's plan
  advance SECONDS                move the clock forward
  tick                           run the order checker and dispatcher now
  fault '<json>'                 queue faults for the next /v1 or token calls (object or array)
  clear-faults                   drop queued faults
  verify | rotate-secret | deliveries      webhook console actions`;

function port(flags: Flags): number {
  const raw = typeof flags.port === "string" ? flags.port : process.env.EMULATOR_PORT;
  const value = raw ? Number(raw) : DEV_APP.emulatorPort;
  if (!Number.isInteger(value) || value < 0 || value > 65535) fail(`Invalid port: ${raw}`);
  return value;
}

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

function needNumber(flags: Flags, name: string): number {
  const value = flags[name];
  if (typeof value !== "string" || !/^[0-9]+$/.test(value)) fail(`--${name} N is required`);
  return Number(value);
}

function needString(value: string | true | undefined, what: string): string {
  if (typeof value !== "string" || value === "") fail(`${what} is required`);
  return value;
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    fail(`${what} is not valid JSON`);
  }
}

async function call(flags: Flags, method: string, path: string, body?: unknown): Promise<void> {
  const url = `http://localhost:${port(flags)}/_emulator/${path}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    fail(`No emulator answers at ${url}. Start one with \`npm run emulator\`.`);
  }
  const text = await response.text();
  let output = text;
  try {
    output = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // not JSON: print as is
  }
  if (!response.ok) fail(`${response.status}: ${output}`);
  console.log(output);
}

async function start(flags: Flags): Promise<void> {
  const timeScale = typeof flags["time-scale"] === "string" ? Number(flags["time-scale"]) : 1;
  if (!(timeScale > 0)) fail("--time-scale must be a positive number");
  const emulator = await startEmulator({
    port: port(flags),
    appUrl: typeof flags["app-url"] === "string" ? flags["app-url"] : undefined,
    dataFile: flags.memory ? null : typeof flags["data-file"] === "string" ? flags["data-file"] : DEFAULT_DATA_FILE,
    timeScale,
    autoTick: !flags["no-auto-tick"],
    allowLocalhostWebhooks: !flags["strict-webhook-urls"],
    oauthRateLimits: !flags["no-oauth-limits"],
  });
  const summary = emulator.control.state();
  const lines = [
    `Platform emulator listening on ${emulator.url}  (auth_url and base_url; REST under /v1)`,
    `  app client id: ${summary.app.clientId}  (status ${summary.app.status}, minimum plan ${summary.app.minimumPlan})`,
    `  redirect URI:  ${summary.app.redirectUris.join(", ")}`,
    `  webhook URL:   ${summary.app.webhook.url}${summary.app.webhook.verified ? " (verified)" : ""}`,
    `  merchants (sign in at ${emulator.url}/login):`,
    ...summary.merchants.map((merchant) => {
      const stores = summary.stores.filter((store) => store.ownerMerchantId === merchant.id);
      return `    ${merchant.id} ${merchant.name}: ${stores.map((store) => `${store.id} ${store.name} (${store.plan})`).join(", ")}`;
    }),
    `  control API:   ${emulator.url}/_emulator/  (npm run emulator -- state)`,
    `  time scale ${timeScale}x, state ${flags.memory ? "in memory" : `in ${typeof flags["data-file"] === "string" ? flags["data-file"] : DEFAULT_DATA_FILE}`}`,
  ];
  console.log(lines.join("\n"));
  const stop = async () => {
    await emulator.close();
    process.exit(0);
  };
  process.once("SIGINT", () => void stop());
  process.once("SIGTERM", () => void stop());
}

async function main(): Promise<void> {
  const { command, positional, flags } = parseArgs(process.argv.slice(2));
  if (flags.help || command === "help") {
    console.log(USAGE);
    return;
  }
  switch (command) {
    case "start":
      return start(flags);
    case "reset":
      return call(flags, "POST", "reset");
    case "state":
      return call(flags, "GET", "state");
    case "place-order": {
      const extra = typeof flags.json === "string" ? (parseJson(flags.json, "--json") as object) : {};
      return call(flags, "POST", "orders", { ...extra, storeId: needNumber(flags, "store") });
    }
    case "set-status":
      return call(flags, "POST", `orders/${needNumber(flags, "order")}/status`, { status: needString(flags.status, "--status S") });
    case "uninstall":
      return call(flags, "POST", `stores/${needNumber(flags, "store")}/uninstall`);
    case "app-status":
      return call(flags, "POST", "app/status", { status: needString(positional[0], "the status") });
    case "withhold-scopes":
      return call(flags, "POST", "app/withheld-scopes", { scopes: positional });
    case "plan": {
      const body: Record<string, unknown> = { plan: needString(flags.plan, "--plan P") };
      if (typeof flags.expires === "string") body.planExpiresAt = flags.expires;
      return call(flags, "POST", `stores/${needNumber(flags, "store")}/plan`, body);
    }
    case "advance": {
      const seconds = Number(needString(positional[0], "SECONDS"));
      if (!Number.isFinite(seconds) || seconds < 0) fail("SECONDS must be a non-negative number");
      return call(flags, "POST", "clock/advance", { seconds });
    }
    case "tick":
      return call(flags, "POST", "tick");
    case "fault": {
      const parsed = parseJson(needString(positional[0], "a fault as JSON"), "the fault");
      return call(flags, "POST", "faults", { faults: Array.isArray(parsed) ? parsed : [parsed] });
    }
    case "clear-faults":
      return call(flags, "DELETE", "faults");
    case "verify":
      return call(flags, "POST", "webhooks/verify");
    case "rotate-secret":
      return call(flags, "POST", "webhooks/rotate-secret");
    case "deliveries":
      return call(flags, "GET", "webhooks/deliveries");
    default:
      fail(`Unknown command: ${command}\n\n${USAGE}`);
  }
}

main().catch((error: unknown) => fail(`emulator: ${error instanceof Error ? error.message : "failed"}`));
