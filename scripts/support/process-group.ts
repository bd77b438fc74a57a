import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";

/**
 * Children started as the leaders of their own process groups, so that stopping one stops everything it started
 * (npx, tsx and next all start children of their own), and signal forwarding so that killing the parent does not
 * orphan them: a killed test run or dev server leaves no emulator or app behind on its port.
 */
export type GroupChild = { child: ChildProcess; exited: Promise<number> };

const running = new Set<ChildProcess>();

export function spawnGroup(command: string, args: string[], options: SpawnOptions = {}): GroupChild {
  const child = spawn(command, args, { ...options, detached: process.platform !== "win32" });
  running.add(child);
  const exited = new Promise<number>((resolve) => {
    child.on("exit", (code, signal) => {
      running.delete(child);
      resolve(code ?? (signal ? 128 + (signalNumber(signal) ?? 1) : 0));
    });
    child.on("error", () => {
      running.delete(child);
      resolve(127);
    });
  });
  return { child, exited };
}

function signalNumber(signal: NodeJS.Signals): number | undefined {
  return { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 }[signal as string];
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(process.platform === "win32" ? child.pid : -child.pid, signal);
  } catch {
    // Already gone.
  }
}

/** Sends `signal` to every running group, then SIGKILL to those still there after `graceMs`. */
export async function stopGroups(signal: NodeJS.Signals = "SIGTERM", graceMs = 8_000): Promise<void> {
  const children = [...running];
  for (const child of children) signalGroup(child, signal);
  await Promise.race([
    Promise.all(children.map((child) => new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", () => resolve()))))),
    new Promise((resolve) => setTimeout(resolve, graceMs).unref()),
  ]);
  for (const child of children) signalGroup(child, "SIGKILL");
}

/**
 * On SIGINT, SIGTERM or SIGHUP: pass the signal to every group, wait for them (at most `graceMs`), and exit with
 * 128 + the signal's number, as a shell would report it.
 */
export function stopGroupsOnSignals(options: { graceMs?: number; beforeExit?: () => void | Promise<void> } = {}): void {
  let stopping = false;
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      void (async () => {
        await stopGroups(signal === "SIGHUP" ? "SIGTERM" : signal, options.graceMs);
        await options.beforeExit?.();
        process.exit(128 + (signalNumber(signal) ?? 1));
      })();
    });
  }
  // A plain exit (an error, process.exit elsewhere) must not orphan them either.
  process.on("exit", () => {
    for (const child of running) signalGroup(child, "SIGKILL");
  });
}
