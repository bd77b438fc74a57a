/**
 * `npm run dev`: the platform emulator and the app together, on the embedded database, with no .env needed.
 * Prints where to go once the app's home page answers 200 (compiled, so the first visit is quick). Ctrl-C, or a
 * SIGTERM to this process, stops both with everything they started.
 *
 * Both start straight from node (no npx: each npx costs a second of npm start-up), and the emulator needs no build
 * step. What the first page does not need waits until it has answered (instrumentation.ts): the database opens, and
 * the job engine migrates and starts its worker, right after, instead of taking the two cores from its compile.
 *
 * PORT (default 3000) and EMULATOR_PORT (default 4000) move them; EMULATOR_TIME_SCALE (default 12) and
 * EMULATOR_DATA_FILE (default the emulator's own) tune the emulator.
 */
import { createServer } from "node:net";
import { setPriority } from "node:os";
import { createInterface } from "node:readline";
import { env } from "../lib/env";
import { spawnGroup, stopGroups, stopGroupsOnSignals } from "./support/process-group";
import { nextBin } from "./support/next-bin";

const started = Date.now();
// `PORT=3005 npm run dev` moves the app; the app's own URL (redirect URI, webhook URL) follows unless APP_URL is set.
if (process.env.PORT && !process.env.APP_URL) process.env.APP_URL = `http://localhost:${process.env.PORT}`;
const appPort = new URL(env.APP_URL).port || "3000";
const emulatorUrl = `http://localhost:${env.EMULATOR_PORT}`;
// A minute of platform time passes in five seconds, so webhooks for a test order arrive while you watch.
const timeScale = process.env.EMULATOR_TIME_SCALE ?? "12";
const emulatorDataFile = process.env.EMULATOR_DATA_FILE;

let stopping = false;

function start(label: string, args: string[], options: { yieldCpu?: boolean } = {}): void {
  const { child, exited } = spawnGroup(process.execPath, args, { env: process.env, stdio: ["ignore", "pipe", "pipe"] });
  // Started side by side with the app, but the app's first compile gets the cores first: on two cores a peer's
  // start-up at the same priority took its share from the compile the developer waits on.
  if (options.yieldCpu && child.pid) {
    try {
      setPriority(child.pid, 10);
    } catch {
      // Not allowed here (some containers): the same start, only not yielding.
    }
  }
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    createInterface({ input: stream }).on("line", (line) => console.log(`[${label}] ${line}`));
  }
  void exited.then((code) => {
    if (stopping) return;
    console.error(`\n[${label}] exited with code ${code}; stopping.`);
    void stop(code || 1);
  });
}

async function stop(code: number): Promise<void> {
  stopping = true;
  await stopGroups("SIGTERM", 5_000);
  process.exit(code);
}

async function waitFor(url: string, timeoutMs: number, ready: (status: number) => boolean): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(60_000) });
      await response.body?.cancel();
      if (ready(response.status)) return true;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

/** Another server on our port would answer our readiness check and hide that ours never started. */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, () => probe.close(() => resolve(true)));
  });
}

async function main(): Promise<void> {
  stopGroupsOnSignals({ graceMs: 5_000 });
  for (const [what, port, variable] of [
    ["the app", Number(appPort), "PORT or APP_URL"],
    ["the emulator", env.EMULATOR_PORT, "EMULATOR_PORT"],
  ] as const) {
    if (!(await portIsFree(port))) {
      console.error(`✗ Port ${port} for ${what} is in use (another npm run dev?). Stop that process or set ${variable} to another port.`);
      process.exit(1);
    }
  }
  console.log(`Starting the platform emulator on ${emulatorUrl} and the app on ${env.APP_URL} …`);
  const emulatorArgs = ["start", "--port", String(env.EMULATOR_PORT), "--app-url", env.APP_URL, "--time-scale", timeScale];
  if (emulatorDataFile) emulatorArgs.push("--data-file", emulatorDataFile);
  // The app first: its first compile is what the first page waits for (the emulator is up in a second or two).
  start("app", [nextBin(), "dev", "-p", appPort]);
  start("emulator", ["--import", "tsx", "emulator/src/cli.ts", ...emulatorArgs], { yieldCpu: true });

  const [emulatorUp, appUp] = await Promise.all([
    waitFor(`${emulatorUrl}/_emulator/clock`, 60_000, (status) => status === 200),
    // The first request compiles the home page; its answer starts the database and the job worker (instrumentation.ts).
    waitFor(`${env.APP_URL}/`, 180_000, (status) => status === 200),
  ]);
  if (!emulatorUp || !appUp) {
    console.error(`\n✗ ${emulatorUp ? "The app" : "The emulator"} did not answer in time; see its lines above.`);
    await stop(1);
    return;
  }
  console.log(
    [
      "",
      "━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━",
      `  Ready in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
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
  void stop(1);
});
