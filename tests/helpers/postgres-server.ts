import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { freePort } from "@/scripts/support/free-port";

/**
 * A throwaway PostgreSQL server of the test's own, for tests that must stop and start the database (PGlite runs
 * in-process and cannot fail that way; the CI server must not be stopped). It uses the machine's PostgreSQL
 * binaries (Debian: /usr/lib/postgresql/<version>/bin, or PG_BIN_DIR), lives in a temporary folder on a free
 * loopback port, and is removed afterwards. initdb and pg_ctl refuse to run as root, so as root they run as the
 * `postgres` user (runuser). Where none of this is possible, serverUnavailable() says why, for the skip message.
 */

const run = promisify(execFile);

export type TempPostgres = {
  port: number;
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  /** Stops the server the way a crash does (`pg_ctl stop -m immediate`): open connections are cut. */
  stop(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
};

function binDir(): string | null {
  const configured = process.env.PG_BIN_DIR;
  if (configured) return existsSync(path.join(configured, "pg_ctl")) ? configured : null;
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const dir = path.join(root, version, "bin");
    if (existsSync(path.join(dir, "initdb")) && existsSync(path.join(dir, "pg_ctl"))) return dir;
  }
  return null;
}

const isRoot = () => typeof process.getuid === "function" && process.getuid() === 0;

/** Why no temporary server can be started here, or null when one can. Cheap: for describe.skipIf. */
export function serverUnavailable(): string | null {
  if (process.platform === "win32") return "temporary PostgreSQL servers are not supported on Windows";
  if (!binDir()) return "no PostgreSQL binaries (initdb, pg_ctl) under /usr/lib/postgresql/*/bin and PG_BIN_DIR is not set";
  if (isRoot() && !existsSync("/usr/sbin/runuser") && !existsSync("/sbin/runuser")) {
    return "running as root without runuser: initdb refuses root";
  }
  return null;
}

export async function startTempPostgres(): Promise<TempPostgres> {
  const bin = binDir();
  if (!bin) throw new Error(serverUnavailable() ?? "no PostgreSQL binaries");
  const dir = await mkdtemp(path.join(os.tmpdir(), "starter-pg-"));
  const dataDir = path.join(dir, "data");
  const asServerUser = async (command: string, args: string[]) => {
    const [file, argv] = isRoot() ? ["runuser", ["-u", "postgres", "--", path.join(bin, command), ...args]] : [path.join(bin, command), args];
    return run(file, argv, { timeout: 60_000 });
  };
  if (isRoot()) {
    await run("chown", ["postgres", dir]);
    await chmod(dir, 0o700);
  }
  const port = await freePort();
  await asServerUser("initdb", ["-D", dataDir, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"]);
  // The tests crash this server (an immediate stop), not the machine: fsync can be off, since the operating system
  // keeps what was written. synchronous_commit must stay on: off, a commit is answered before its WAL is written, so
  // the crash loses events the receiver rightly acknowledged, and the outage test would blame the receiver.
  const serverOptions = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
  const start = async () => {
    await asServerUser("pg_ctl", ["-D", dataDir, "-o", serverOptions, "-l", path.join(dir, "server.log"), "-w", "-t", "30", "start"]);
  };
  const stop = async () => {
    await asServerUser("pg_ctl", ["-D", dataDir, "-m", "immediate", "-w", "stop"]);
  };
  await start();
  return {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    async destroy() {
      await stop().catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
}
