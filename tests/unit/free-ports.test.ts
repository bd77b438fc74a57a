import { execFileSync } from "node:child_process";
import { createServer, type Server } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, freePortsSync } from "@/scripts/support/free-port";

const root = path.resolve(import.meta.dirname, "../..");

function listen(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(port, () => resolve(server));
  });
}

/** What tests/e2e/support/servers.ts settles on in a fresh process with this environment. */
function e2ePorts(env: Record<string, string | undefined>): { app: number; emulator: number; envApp?: string } {
  const script =
    'import("./tests/e2e/support/servers.ts").then((m) => console.log(JSON.stringify({ app: m.APP_PORT, emulator: m.EMULATOR_PORT, envApp: process.env.E2E_APP_PORT })))';
  const output = execFileSync(path.join(root, "node_modules/.bin/tsx"), ["-e", script], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } as unknown as NodeJS.ProcessEnv,
    encoding: "utf8",
  });
  return JSON.parse(output.trim().split("\n").at(-1) ?? "{}") as { app: number; emulator: number; envApp?: string };
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

  it("gives the browser tests free ports when none are set, and records them for Playwright's workers", async () => {
    const chosen = e2ePorts({});
    expect(chosen.app).not.toBe(chosen.emulator);
    expect(String(chosen.app)).toBe(chosen.envApp);
    for (const port of [chosen.app, chosen.emulator]) {
      expect(port).not.toBe(busyPort);
      await new Promise((resolve) => listen(port).then((server) => server.close(resolve)));
    }
  });

  it("keeps ports given in E2E_APP_PORT and E2E_EMULATOR_PORT (a worker inherits the runner's choice)", () => {
    expect(e2ePorts({ E2E_APP_PORT: "3456", E2E_EMULATOR_PORT: "4567" })).toMatchObject({ app: 3456, emulator: 4567 });
  });
});
