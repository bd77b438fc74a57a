import { spawn, type ChildProcess } from "node:child_process";
import { createConnection } from "node:net";

/** True when something accepts connections on the port. */
export function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: "127.0.0.1" });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

export async function until(condition: () => Promise<boolean> | boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}

/** This worker's environment without Playwright's own variables, which would confuse a nested runner. */
export function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const kept = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(TEST_|PW_|PLAYWRIGHT_)/.test(name)));
  return { ...kept, ...extra } as unknown as NodeJS.ProcessEnv;
}

export type Watched = { child: ChildProcess; output: () => string; exited: Promise<number | null> };

/**
 * A command from the project's folder with its output collected. `group: true` starts it in a process group of its
 * own, for `stopGroup`: `npx next start` is npx, then next, then the server it forks, and a signal to npx alone
 * leaves that server running after the test.
 */
export function run(command: string, args: string[], env: NodeJS.ProcessEnv, options: { group?: boolean } = {}): Watched {
  const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"], detached: options.group ?? false });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Stops a command started with `group: true` and everything it started: SIGTERM, then SIGKILL after `graceMs`. */
export async function stopGroup(watched: Watched, graceMs = 10_000): Promise<void> {
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      if (watched.child.pid !== undefined) process.kill(-watched.child.pid, signal);
    } catch {
      // The group is gone already.
    }
  };
  signalGroup("SIGTERM");
  await Promise.race([watched.exited, new Promise((resolve) => setTimeout(resolve, graceMs))]);
  signalGroup("SIGKILL");
}
