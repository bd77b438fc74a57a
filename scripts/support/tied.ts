/**
 * `tsx scripts/support/tied.ts <command> [args...]`: runs the command for as long as whoever started this keeps
 * our stdin open. Playwright starts its webServer commands with a stdin pipe and kills their process group when it
 * ends normally; when the runner itself dies (SIGTERM, SIGKILL, a crash), nobody would, but the pipe closes, and
 * this stops the server instead of leaving it on its port. The command stays in our process group, so Playwright's
 * own kill still reaches it.
 */
import { spawn } from "node:child_process";

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error("usage: tsx scripts/support/tied.ts <command> [args...]");
  process.exit(2);
}

const child = spawn(command, args, { stdio: ["ignore", "inherit", "inherit"] });
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
child.on("error", (error) => {
  console.error(`tied: cannot start ${command}: ${error.message}`);
  process.exit(127);
});

function stop(): void {
  child.kill("SIGTERM");
  setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
}

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, stop);
process.stdin.on("end", stop);
process.stdin.on("error", stop);
process.stdin.resume();
