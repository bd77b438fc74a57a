import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cpuBreakdown } from "@/tooling/bench/cpu-profile";

const folder = mkdtempSync(path.join(os.tmpdir(), "cpu-profile-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const frame = (id: number, functionName: string, url: string, children: number[] = []) => ({
  id,
  callFrame: { functionName, url, lineNumber: 0, columnNumber: 0 },
  children,
});

/**
 * A server's start (an ES module's resolution reading package.json files, 30 ms) at 1,000,000 µs on the monotonic
 * clock, then its requests: 8 ms of stream writing and 2 ms of the app's own code.
 */
function writeProfile(): string {
  const profile = {
    startTime: 1_000_000,
    nodes: [
      frame(1, "(root)", "", [2, 4, 6, 7]),
      frame(2, "getModuleJobForImport", "node:internal/modules/esm/loader", [3]),
      frame(3, "getPackageScopeConfig", "node:internal/modules/package_json_reader"),
      frame(4, "Writable.write", "node:internal/streams/writable", [5]),
      frame(5, "writeBuffer", ""),
      frame(6, "OrdersPage", "file:///srv/app/orders/page.js"),
      frame(7, "(idle)", ""),
    ],
    // Sample i lasted timeDeltas[i] microseconds before it was taken: three of the start, then the requests'.
    samples: [3, 3, 3, 7, 5, 5, 5, 5, 6, 7],
    timeDeltas: [10_000, 10_000, 10_000, 50_000, 2_000, 2_000, 2_000, 2_000, 2_000, 5_000],
  };
  const file = path.join(folder, "server.cpuprofile");
  writeFileSync(file, JSON.stringify(profile));
  return file;
}

describe("where a server's CPU went", () => {
  const file = writeProfile();

  it("leaves out what came before the timed requests, so a server's start is no request's cost", () => {
    // The requests began 60 ms after the profile did (after the start and the idle wait).
    const breakdown = cpuBreakdown(file, 2, 1_000_000 + 80_000);
    expect(breakdown.perRequestMs).toBe(5);
    expect(Object.fromEntries(breakdown.kinds)).toEqual({
      "Node (streams, sockets, buffers, promises)": 4,
      "the app's own code": 1,
    });
  });

  it("counts an ES module's resolution as module loading, not as Node's streams", () => {
    const breakdown = cpuBreakdown(file, 2);
    expect(breakdown.perRequestMs).toBe(20);
    expect(Object.fromEntries(breakdown.kinds)).toMatchObject({ "module loading": 15, "Node (streams, sockets, buffers, promises)": 4 });
  });
});
