/**
 * Where the end-to-end servers listen. playwright.config.ts starts both: the emulator (in memory, clock driven by the
 * tests) and the production build of the app pointed at it.
 */
export const APP_PORT = Number(process.env.E2E_APP_PORT ?? 3100);
export const EMULATOR_PORT = Number(process.env.E2E_EMULATOR_PORT ?? 4100);
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
