import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_PACING } from "@/lib/platform/pacing";
import { databaseKind } from "../helpers/database";
import { startHarness, type Harness } from "./platform-harness";

const STORE = 101;
/** Emulated seconds per real second: a platform minute passes in 5 s, and the client's clock follows the emulator's. */
const TIME_SCALE = 12;
const CALLS = 250;
/**
 * The pacer's edge band, in the emulator's time: the real second of latency it allows in production, scaled. At its
 * production value a call had 83 real milliseconds between taking its slot and reaching the emulator; on two loaded
 * cores one took longer, landed in the next minute and met a 429 there.
 */
const EDGE_MS = DEFAULT_PACING.edgeMs * TIME_SCALE;

describe(`two app instances sharing one database (${databaseKind()})`, () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ timeScale: TIME_SCALE });
    await h.install(STORE);
  });
  afterAll(async () => {
    await h?.close();
  });

  it("stay under 120 calls per clock minute for one install while both push as hard as they can, and meet no 429", async () => {
    const clock = h.emulator.ctx.clock;
    // Start just after a minute boundary so the run spans exactly three platform minutes.
    clock.advance((60_000 - (clock.nowMs() % 60_000) + 1_500) / 1000);
    const options = {
      now: () => clock.nowMs(),
      sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms / TIME_SCALE)),
      retry: { maxAttempts: 1 },
      pacing: { edgeMs: EDGE_MS },
    };
    const instances = [h.client(STORE, { ...options, instanceId: "one" }), h.client(STORE, { ...options, instanceId: "two" })];
    let remaining = CALLS;
    let succeeded = 0;
    await Promise.all(
      instances.map(async (client) => {
        while (remaining > 0) {
          remaining -= 1;
          await client.whoami();
          succeeded += 1;
        }
      }),
    );

    expect(succeeded).toBe(CALLS);
    expect(h.sent.filter((request) => request.status === 429)).toHaveLength(0);
    // The emulator counts every call per install and clock minute and answers 429 past 120: none met means none over.
    const perMinute = new Map<number, number>();
    const perInstance = new Map<string, number>();
    for (const request of h.sent) {
      const minute = Math.floor(request.at / 60_000);
      perMinute.set(minute, (perMinute.get(minute) ?? 0) + 1);
      const instance = (request.headers.get("x-request-id") ?? "").split("-")[0]!;
      perInstance.set(instance, (perInstance.get(instance) ?? 0) + 1);
    }
    expect(Math.max(...perMinute.values())).toBeLessThanOrEqual(120);
    expect(perMinute.size).toBeGreaterThanOrEqual(Math.ceil(CALLS / 120));
    // Both instances really pushed.
    expect(perInstance.get("one")).toBeGreaterThan(20);
    expect(perInstance.get("two")).toBeGreaterThan(20);
    expect(h.sent).toHaveLength(CALLS);
  }, 90_000);
});
