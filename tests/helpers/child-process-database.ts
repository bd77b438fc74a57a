import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase } from "@/db/client";
import { createScratchDatabase } from "@/db/scratch";
import type { RecordingProxy } from "./recording-proxy";

/**
 * A database a process of its own can open, for the tests that kill one: a scratch database on the server
 * (TEST_DATABASE_URL or DATABASE_URL), else an embedded folder, which the test must close while the child has it
 * (two processes never open one folder).
 */
export async function databaseForAChild(prefix: string) {
  const serverUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  const folder = serverUrl ? null : await mkdtemp(path.join(tmpdir(), `${prefix}-`));
  const scratch = serverUrl ? await createScratchDatabase(serverUrl, "starter_test") : null;
  const target = scratch ? scratch.url : path.join(folder!, "db");
  return {
    target,
    embedded: !scratch,
    open: () => openDatabase(scratch ? { url: target } : { embedded: target }),
    async drop() {
      await scratch?.drop();
      if (folder) await rm(folder, { recursive: true, force: true });
    },
  };
}

/**
 * `script` (a file under tests/helpers/ that reads JOBS_CHILD_DB and JOBS_CHILD_API) in a process of its own on
 * `target`, the platform behind `proxy` answering 300 ms a call, killed with SIGKILL once `reached` holds: an event,
 * or the child's exit, ends the wait, never a deadline. The platform's delay is undone whatever happens.
 */
export async function killChildOnce(
  script: string,
  { target, proxy, reached, what }: { target: string; proxy: RecordingProxy; reached: () => boolean | Promise<boolean>; what: string },
): Promise<void> {
  proxy.delayMs = 300;
  const child = spawn(process.execPath, ["--import", "tsx", "--conditions=react-server", script], {
    env: { ...process.env, JOBS_CHILD_DB: target, JOBS_CHILD_API: proxy.url },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    while (!(await reached())) {
      if (child.exitCode !== null) throw new Error(`the child process exited before ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    child.kill("SIGKILL");
    await exited;
    proxy.delayMs = 0;
  }
}
