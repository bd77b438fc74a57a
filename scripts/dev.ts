/**
 * `npm run dev`: the platform emulator and the app together, on the embedded database, with no .env needed.
 * Prints where to go once both answer. Ctrl-C stops both.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { parseEnv } from "../lib/env";

const env = parseEnv(process.env);
const appPort = new URL(env.APP_URL).port || "3000";
const emulatorUrl = `http://localhost:${env.EMULATOR_PORT}`;
// A minute of platform time passes in five seconds, so webhooks for a test order arrive while you watch.
const timeScale = process.env.EMULATOR_TIME_SCALE ?? "12";

const children: ChildProcess[] = [];
let stopping = false;

function start(label: string, command: string, args: string[], extraEnv: Record<string, string> = {}): ChildProcess {
  const child = spawn(command, args, { env: { ...process.env, ...extraEnv }, stdio: ["ignore", "pipe", "pipe"] });
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    createInterface({ input: stream }).on("line", (line) => console.log(`[${label}] ${line}`));
  }
  child.on("exit", (code) => {
    if (stopping) return;
    console.error(`\n[${label}] exited with code ${code ?? "?"}; stopping.`);
    stop(code ?? 1);
  });
  children.push(child);
  return child;
}

function stop(code: number): void {
  stopping = true;
  for (const child of children) child.kill("SIGTERM");
  setTimeout(() => process.exit(code), 500).unref();
}

async function waitFor(url: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      if (response.status < 500) return true;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 400));
  }
  return false;
}

async function main(): Promise<void> {
  console.log(`Starting the platform emulator on ${emulatorUrl} and the app on ${env.APP_URL} …`);
  start("emulator", "npx", [
    "tsx",
    "emulator/src/cli.ts",
    "start",
    "--port",
    String(env.EMULATOR_PORT),
    "--app-url",
    env.APP_URL,
    "--time-scale",
    timeScale,
  ]);
  start("app", "npx", ["next", "dev", "-p", appPort]);

  process.on("SIGINT", () => stop(0));
  process.on("SIGTERM", () => stop(0));

  const [emulatorUp, appUp] = await Promise.all([
    waitFor(`${emulatorUrl}/_emulator/clock`, 60_000),
    // The first request compiles the page and opens (and migrates) the embedded database.
    waitFor(`${env.APP_URL}/api/health`, 120_000),
  ]);
  if (!emulatorUp || !appUp) {
    console.error(`\n✗ ${emulatorUp ? "The app" : "The emulator"} did not answer in time; see its lines above.`);
    stop(1);
    return;
  }
  console.log(
    [
      "",
      "━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━",
      `  Open the app:        ${env.APP_URL}`,
      `  Platform emulator:   ${emulatorUrl}  (merchant dashboard: ${emulatorUrl}/dashboard, developer console: ${emulatorUrl}/console)`,
      `  Database:            ${env.DATABASE_URL ? "DATABASE_URL" : `embedded, in ${env.PGLITE_DIR}`}`,
      `  Emulator clock:      ${timeScale}× real time (a platform minute every ${Math.round(60 / Number(timeScale))} s)`,
      "  Install the app, sign in as Amina, tick two stores, then place a test order from the dashboard.",
      "━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━",
      "",
    ].join("\n"),
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  stop(1);
});
