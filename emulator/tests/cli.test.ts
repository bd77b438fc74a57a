import { spawn, type ChildProcess } from "node:child_process";
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEV_APP } from "@/lib/dev-app";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");
const tsx = path.join(root, "node_modules", ".bin", "tsx");
const cli = path.join(root, "emulator", "src", "cli.ts");

let child: ChildProcess;
let url: string;
let port: string;

/** `npm run emulator` as a real process: started on a free port, in memory. */
beforeAll(async () => {
  child = spawn(tsx, [cli, "start", "--port", "0", "--memory", "--no-auto-tick"], { cwd: root, env: { ...process.env } });
  let output = "";
  url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/localhost:(\d+))/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.once("exit", (code) => reject(new Error(`emulator exited with ${code}: ${output}`)));
  });
  port = new URL(url).port;
  expect(output).toContain(DEV_APP.clientId);
  expect(output).not.toContain(DEV_APP.clientSecret);
  expect(output).toContain("Amina Haddad");
  expect(output).toContain("/_emulator/");
}, 90_000);

afterAll(() => {
  child?.kill("SIGTERM");
});

const emulatorCommand = (...args: string[]) => run(tsx, [cli, ...args], { cwd: root, env: { ...process.env, EMULATOR_PORT: port } });

describe("npm run emulator", () => {
  it("answers the documented errors for requests that need no fixture", async () => {
    const ua = { "user-agent": "cli-test" };
    const missing = await fetch(`${url}/v1/whoami`, { headers: ua });
    expect(missing.status).toBe(401);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toBe("Missing Authorization header");
    const scheme = await fetch(`${url}/v1/whoami`, { headers: { ...ua, authorization: "Token x" } });
    expect(((await scheme.json()) as { error: { message: string } }).error.message).toBe("Unsupported Authorization scheme");
    const unknown = await fetch(`${url}/v1/whoami`, { headers: { ...ua, authorization: "Bearer svcpk_live_nope" } });
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toBe("Invalid or revoked API key");
    const authorize = await fetch(`${url}/oauth/apps/authorize?client_id=svcapp_ffffffffffffffffffff&response_type=code`, { redirect: "manual" });
    expect(authorize.status).toBe(400);
    const formClient = await fetch(`${url}/oauth/apps/token`, {
      method: "POST",
      headers: { ...ua, "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=authorization_code&client_id=svcapp_ffffffffffffffffffff&client_secret=x",
    });
    expect(formClient.status).toBe(401);
    expect(formClient.headers.get("www-authenticate")).toBeNull();
    const basicClient = await fetch(`${url}/oauth/apps/token`, {
      method: "POST",
      headers: { ...ua, "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${Buffer.from("svcapp_ffffffffffffffffffff:x").toString("base64")}` },
      body: "grant_type=authorization_code",
    });
    expect(basicClient.status).toBe(401);
    expect(basicClient.headers.get("www-authenticate")).toMatch(/^Basic realm=/);
  });

  it("drives the running emulator through its commands", async () => {
    const state = JSON.parse((await emulatorCommand("state")).stdout) as { stores: { id: number }[] };
    expect(state.stores.map((store) => store.id)).toContain(101);
    const order = JSON.parse((await emulatorCommand("place-order", "--store", "102")).stdout) as { id: number; status: string };
    expect(order.status).toBe("pending");
    const changed = JSON.parse((await emulatorCommand("set-status", "--order", String(order.id), "--status", "confirmed")).stdout) as { status: string };
    expect(changed.status).toBe("confirmed");
    await expect(emulatorCommand("plan", "--store", "102", "--plan", "gold")).rejects.toThrow(/422/);
    // Each command is a fresh tsx process (about a second each, several on a loaded two-core machine).
  }, 120_000);
});
