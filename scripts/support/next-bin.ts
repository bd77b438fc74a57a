import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/**
 * The `next` command's script, read from the `bin` field of the installed next's package.json: the path next
 * declares for its CLI, so a bump that moves it moves this too. Run with `process.execPath` (no npx: each npx costs
 * a second of npm start-up, and a signal to npx does not reach the server it forks).
 */
export function nextBin(): string {
  const manifestPath = createRequire(path.join(process.cwd(), "package.json")).resolve("next/package.json");
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { bin?: string | Record<string, string> };
  const bin = typeof manifest.bin === "string" ? manifest.bin : manifest.bin?.next;
  if (!bin) throw new Error(`${manifestPath} declares no \`next\` command`);
  return path.join(path.dirname(manifestPath), bin);
}
