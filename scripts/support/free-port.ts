import { execFile, execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";

/**
 * Ports for servers that another process binds a moment later: each is checked by listening on it, then closed.
 *
 * They are drawn at random from below the kernel's ephemeral range (Linux: 32768-60999), where it never picks a
 * port on its own. A port from inside that range, closed again, can become the local port of one of the outgoing
 * connections a test run opens by the hundred (a database pool, say) before the server binds it, and the server
 * then fails with EADDRINUSE: a run against a PostgreSQL server once lost its browser tests so, in seconds.
 */
const LOWEST = 20_000;

/** Where the kernel starts handing out ports of its own: Linux says; elsewhere IANA's 49152 (macOS, Windows). */
export function ephemeralStart(): number {
  try {
    const first = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    if (Number.isInteger(first) && first > 0) return first;
  } catch {
    // Not Linux.
  }
  return 49_152;
}

export type PortRange = { low: number; high: number };

const belowTheKernel = (): PortRange => ({ low: LOWEST, high: ephemeralStart() });

// Run in a short node child, so that the config files that cannot wait (playwright.config.ts) get ports too. Each
// port is held open until all are chosen, so they are distinct; a candidate in use, or given out before by this
// process, is passed over. Should the range below the kernel's be too narrow, or every try fail, the kernel chooses.
const CHOOSE = `
  const net = require("node:net");
  const [count, low, high] = process.argv.slice(1, 4).map(Number);
  const held = [];
  const tried = new Set((process.argv[4] || "").split(",").filter(Boolean).map(Number));
  const before = tried.size;
  const next = () => {
    if (held.length === count) {
      process.stdout.write(held.map((server) => server.address().port).join(" "));
      for (const server of held) server.close();
      return;
    }
    let port = 0;
    if (high - low >= 1000 && tried.size - before < 200) {
      do port = low + Math.floor(Math.random() * (high - low)); while (tried.has(port));
      tried.add(port);
    }
    const server = net.createServer();
    server.once("error", next);
    server.listen(port, () => { held.push(server); next(); });
  };
  next();`;

/** Ports this process has handed out, never handed out again: callers close one before asking for the next. */
const given = new Set<number>();

/** Choosing takes milliseconds, a node start on a crowded machine seconds; a child still at it after a minute is stuck. */
const CHOOSE_TIMEOUT_MS = 60_000;

function chooseArgs(count: number, range: PortRange): string[] {
  return ["-e", CHOOSE, String(count), String(range.low), String(range.high), [...given].join(",")];
}

function parsePorts(output: string, count: number): number[] {
  const ports = output.trim().split(/\s+/).map(Number);
  if (ports.length !== count || ports.some((port) => !Number.isInteger(port) || port <= 0)) {
    throw new Error(`could not pick ${count} free ports (got "${output}")`);
  }
  for (const port of ports) given.add(port);
  return ports;
}

/** `count` distinct ports nothing listens on now, synchronously; `range` (high excluded) is for tests. */
export function freePortsSync(count: number, range: PortRange = belowTheKernel()): number[] {
  return parsePorts(execFileSync(process.execPath, chooseArgs(count, range), { encoding: "utf8", timeout: CHOOSE_TIMEOUT_MS }), count);
}

/** One port nothing listens on now. */
export async function freePort(): Promise<number> {
  const { stdout } = await promisify(execFile)(process.execPath, chooseArgs(1, belowTheKernel()), {
    encoding: "utf8",
    timeout: CHOOSE_TIMEOUT_MS,
  });
  return parsePorts(stdout, 1)[0]!;
}
