import { freePortsSync } from "../../../scripts/support/free-port";
import { e2eSlots } from "./slots";

/**
 * Where the end-to-end servers listen. playwright.config.ts starts one pair per Playwright worker (a slot): an
 * emulator (in memory, clock driven by the tests) and the production build of the app pointed at it, with its own
 * database. A worker talks only to its slot's pair, so two workers never see each other's installs, faults or clock.
 *
 * Ports are E2E_APP_PORT and E2E_EMULATOR_PORT when set (comma-separated, one per slot), else free ones chosen here
 * for E2E_WORKERS slots (default: two, or one on a single core). Playwright evaluates its config in the runner and
 * again in every worker, so the first choice is written back into process.env: workers are started by the runner
 * and inherit it, and all of them agree on the same ports.
 */
function choosePorts(): { app: number[]; emulator: number[] } {
  if (!process.env.E2E_APP_PORT || !process.env.E2E_EMULATOR_PORT) {
    const slots = e2eSlots();
    const ports = freePortsSync(2 * slots);
    process.env.E2E_APP_PORT ||= ports.slice(0, slots).join(",");
    process.env.E2E_EMULATOR_PORT ||= ports.slice(slots).join(",");
  }
  const list = (value: string) => value.split(",").map(Number);
  const app = list(process.env.E2E_APP_PORT);
  const emulator = list(process.env.E2E_EMULATOR_PORT);
  if (app.length !== emulator.length || [...app, ...emulator].some((port) => !Number.isInteger(port) || port <= 0)) {
    throw new Error(`E2E_APP_PORT (${process.env.E2E_APP_PORT}) and E2E_EMULATOR_PORT (${process.env.E2E_EMULATOR_PORT}) must list as many ports each`);
  }
  return { app, emulator };
}

const ports = choosePorts();
/** How many app and emulator pairs the run starts: Playwright's worker count. */
export const SLOTS = ports.app.length;
/** This worker's slot (Playwright numbers its running workers from 0 in TEST_PARALLEL_INDEX); 0 in the runner. */
export const SLOT = Number(process.env.TEST_PARALLEL_INDEX ?? 0) % SLOTS;

export const appPort = (slot: number) => ports.app[slot]!;
export const emulatorPort = (slot: number) => ports.emulator[slot]!;
export const appUrl = (slot: number) => `http://localhost:${appPort(slot)}`;
export const emulatorUrl = (slot: number) => `http://localhost:${emulatorPort(slot)}`;

export const APP_PORT = appPort(SLOT);
export const EMULATOR_PORT = emulatorPort(SLOT);
export const APP_URL = appUrl(SLOT);
export const EMULATOR_URL = emulatorUrl(SLOT);

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
