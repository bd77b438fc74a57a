import { execFileSync } from "node:child_process";
import { createServer } from "node:net";

/**
 * A port nothing listens on right now, chosen by the kernel (listen on 0, read it, close). Another process could
 * take it before the caller binds it; the kernel hands out ports in turn, so that is rare, unlike a fixed port.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/**
 * The same, synchronously, for config files that cannot wait (playwright.config.ts): a short node child picks
 * `count` distinct ports at once, holding each open until all are chosen.
 */
export function freePortsSync(count: number): number[] {
  const script = `
    const net = require("node:net");
    const servers = [];
    let left = ${count};
    for (let i = 0; i < ${count}; i++) {
      const server = net.createServer();
      servers.push(server);
      server.listen(0, () => {
        if (--left === 0) {
          process.stdout.write(servers.map((s) => s.address().port).join(" "));
          for (const s of servers) s.close();
        }
      });
    }`;
  const output = execFileSync(process.execPath, ["-e", script], { encoding: "utf8" });
  const ports = output.trim().split(/\s+/).map(Number);
  if (ports.length !== count || ports.some((port) => !Number.isInteger(port) || port <= 0)) {
    throw new Error(`could not pick ${count} free ports (got "${output}")`);
  }
  return ports;
}
