import { freePortsSync } from "../../../scripts/support/free-port";

/**
 * Where the end-to-end servers listen. playwright.config.ts starts both: the emulator (in memory, clock driven by the
 * tests) and the production build of the app pointed at it.
 *
 * Ports are E2E_APP_PORT and E2E_EMULATOR_PORT when set, else free ones chosen here. Playwright evaluates its config
 * in the runner and again in every worker, so the first choice is written back into process.env: workers are
 * started by the runner and inherit it, and all of them agree on one pair.
 */
function choosePorts(): { app: number; emulator: number } {
  if (!process.env.E2E_APP_PORT || !process.env.E2E_EMULATOR_PORT) {
    const [app, emulator] = freePortsSync(2);
    process.env.E2E_APP_PORT ||= String(app);
    process.env.E2E_EMULATOR_PORT ||= String(emulator);
  }
  return { app: Number(process.env.E2E_APP_PORT), emulator: Number(process.env.E2E_EMULATOR_PORT) };
}

const ports = choosePorts();
export const APP_PORT = ports.app;
export const EMULATOR_PORT = ports.emulator;
export const APP_URL = `http://localhost:${APP_PORT}`;
export const EMULATOR_URL = `http://localhost:${EMULATOR_PORT}`;

/** Calls the emulator's JSON control API (`/_emulator/...`) and returns the parsed answer; throws on non-2xx. */
export async function emulatorControl<T = unknown>(method: "GET" | "POST" | "DELETE", path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${EMULATOR_URL}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`emulator ${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
  return (text ? JSON.parse(text) : undefined) as T;
}
