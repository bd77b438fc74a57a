import { execFileSync } from "node:child_process";
import { createServer, type Server } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ephemeralStart, freePort, freePortsSync } from "@/scripts/support/free-port";

const root = path.resolve(import.meta.dirname, "../..");

function listen(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(port, () => resolve(server));
  });
}

type Settled = { app: number; emulator: number; slots: number; envApp?: string; envEmulator?: string };

/** What tests/e2e/support/servers.ts settles on in a fresh process with this environment. */
function e2ePorts(env: Record<string, string | undefined>): Settled {
  const script =
    'import("./tests/e2e/support/servers.ts").then((m) => console.log(JSON.stringify({ app: m.APP_PORT, emulator: m.EMULATOR_PORT, slots: m.SLOTS, envApp: process.env.E2E_APP_PORT, envEmulator: process.env.E2E_EMULATOR_PORT })))';
  const output = execFileSync(path.join(root, "node_modules/.bin/tsx"), ["-e", script], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } as unknown as NodeJS.ProcessEnv,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  return JSON.parse(output.trim().split("\n").at(-1) ?? "{}") as Settled;
}

describe("free ports for the test servers", () => {
  let busy: Server;
  let busyPort: number;
  beforeAll(async () => {
    busy = await listen(0);
    busyPort = (busy.address() as { port: number }).port;
  });
  afterAll(() => {
    busy.close();
  });

  it("picks distinct ports that can be bound at once, never one in use", async () => {
    const ports = freePortsSync(4);
    expect(new Set(ports).size).toBe(4);
    expect(ports).not.toContain(busyPort);
    const servers = await Promise.all(ports.map(listen));
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    const single = await freePort();
    expect(single).not.toBe(busyPort);
    await new Promise((resolve) => listen(single).then((server) => server.close(resolve)));
  });

  it("picks from below the kernel's own range, so an outgoing connection cannot take a port before its server binds it", async () => {
    const chosen = [...freePortsSync(6), await freePort(), await freePort(), await freePort()];
    for (const port of chosen) {
      expect(port).toBeGreaterThanOrEqual(20_000);
      expect(port).toBeLessThan(ephemeralStart());
    }
    // Closed between calls, a port is still never handed out twice by one process.
    expect(new Set(chosen).size).toBe(chosen.length);
  });

  it("passes over a candidate in use", async () => {
    // A range of 1,000 ports with every other one held here: half the candidates fail to listen.
    const range = { low: 21_000, high: 22_000 };
    const held: Server[] = [];
    for (let port = range.low; port < range.high; port += 2) {
      const server = await listen(port).catch(() => null);
      if (server) held.push(server);
    }
    expect(held.length).toBeGreaterThan(400);
    try {
      const chosen = freePortsSync(10, range);
      const heldPorts = new Set(held.map((server) => (server.address() as { port: number }).port));
      for (const port of chosen) {
        expect(port).toBeGreaterThanOrEqual(range.low);
        expect(port).toBeLessThan(range.high);
        expect(heldPorts.has(port)).toBe(false);
      }
    } finally {
      await Promise.all(held.map((server) => new Promise((resolve) => server.close(resolve))));
    }
  });

  it("gives each of the browser tests' workers free ports when none are set, and records them for the workers", async () => {
    const chosen = e2ePorts({ E2E_WORKERS: "2" });
    expect(chosen.slots).toBe(2);
    const apps = (chosen.envApp ?? "").split(",").map(Number);
    const emulators = (chosen.envEmulator ?? "").split(",").map(Number);
    expect(apps).toHaveLength(2);
    expect(emulators).toHaveLength(2);
    // The runner (no TEST_PARALLEL_INDEX) names the first pair.
    expect([chosen.app, chosen.emulator]).toEqual([apps[0], emulators[0]]);
    const all = [...apps, ...emulators];
    expect(new Set(all).size).toBe(4);
    for (const port of all) {
      expect(port).not.toBe(busyPort);
      await new Promise((resolve) => listen(port).then((server) => server.close(resolve)));
    }
    expect(e2ePorts({ E2E_WORKERS: "1" }).slots).toBe(1);
  });

  it("keeps ports given in E2E_APP_PORT and E2E_EMULATOR_PORT, and a worker talks to its own slot's pair", () => {
    expect(e2ePorts({ E2E_APP_PORT: "3456", E2E_EMULATOR_PORT: "4567" })).toMatchObject({ app: 3456, emulator: 4567, slots: 1 });
    const inherited = { E2E_APP_PORT: "3456,3457", E2E_EMULATOR_PORT: "4567,4568" };
    expect(e2ePorts({ ...inherited, TEST_PARALLEL_INDEX: "0" })).toMatchObject({ app: 3456, emulator: 4567, slots: 2 });
    expect(e2ePorts({ ...inherited, TEST_PARALLEL_INDEX: "1" })).toMatchObject({ app: 3457, emulator: 4568, slots: 2 });
  });

  it("refuses port lists of different lengths, naming both", () => {
    expect(() => e2ePorts({ E2E_APP_PORT: "3456,3457", E2E_EMULATOR_PORT: "4567" })).toThrow(/E2E_APP_PORT \(3456,3457\) and E2E_EMULATOR_PORT \(4567\)/);
  });
});
