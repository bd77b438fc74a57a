import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { rowsOf, type DatabaseHandle } from "@/db/client";
import { slotUsage } from "@/db/queries/rate-buckets";
import { PlatformError } from "@/lib/platform";
import { createPacer, installBucket, MINUTE_MS, storeBucket, windowsAround } from "@/lib/platform/pacing";
import { createTestDatabase, databaseKind } from "../helpers/database";

/** A clock the test moves: sleeping advances it, so waits cost no real time and are measured exactly. */
function fakeClock(startMs: number) {
  const clock = {
    ms: startMs,
    slept: [] as number[],
    now: () => clock.ms,
    sleep: async (ms: number) => {
      clock.slept.push(ms);
      clock.ms += ms;
    },
  };
  return clock;
}

const T0 = Date.parse("2025-03-01T10:00:05Z");

describe(`pacing through the shared table (${databaseKind()})`, () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase();
  });
  afterAll(async () => {
    await handle?.close();
  });
  beforeEach(async () => {
    await handle.db.execute(sql`delete from rate_buckets`);
  });

  it("grants 120 calls per install in a clock minute, then waits for the next minute", async () => {
    const clock = fakeClock(T0);
    const pacer = createPacer({ db: handle.db, now: clock.now, sleep: clock.sleep, random: () => 0 });
    for (let index = 0; index < 120; index += 1) await pacer.acquire(7, 101);
    expect(clock.slept).toEqual([]);
    expect(await slotUsage(handle.db, installBucket(7), new Date(Date.parse("2025-03-01T10:00:00Z")))).toBe(120);

    const waited = await pacer.acquire(7, 101);
    // Next minute starts at 10:01:00; the edge band (1 s) keeps the full minute off limits until 10:01:01.
    expect(waited).toBe(Date.parse("2025-03-01T10:01:01Z") - T0);
    expect(await slotUsage(handle.db, installBucket(7), new Date(Date.parse("2025-03-01T10:01:00Z")))).toBe(1);
  });

  it("shares the store budget between installs of one store", async () => {
    const clock = fakeClock(T0);
    const pacer = createPacer({ db: handle.db, now: clock.now, sleep: clock.sleep, random: () => 0 }, { perInstall: 3, perStore: 5 });
    for (let index = 0; index < 3; index += 1) await pacer.acquire(1, 200);
    for (let index = 0; index < 2; index += 1) await pacer.acquire(2, 200);
    expect(clock.slept).toEqual([]);
    await pacer.acquire(2, 200);
    expect(clock.slept).toHaveLength(1);
    // The refused attempt did not keep install 2's slot: all or none.
    expect(await slotUsage(handle.db, installBucket(2), new Date(Date.parse("2025-03-01T10:00:00Z")))).toBe(2);
  });

  it("never lets two instances together exceed the limit, however hard both push", async () => {
    const clock = fakeClock(T0);
    // Both instances read one clock but never sleep it forward: the test only counts what each minute granted.
    const grants: number[] = [];
    const instance = () =>
      createPacer(
        {
          db: handle.db,
          now: clock.now,
          sleep: async () => {
            throw new PlatformError({ kind: "local", status: null, code: "would_wait", message: "full" });
          },
        },
        { perInstall: 20, perStore: 600 },
      );
    const push = async (pacer: ReturnType<typeof createPacer>) => {
      for (;;) {
        try {
          await pacer.acquire(9, 300);
          grants.push(1);
        } catch {
          return;
        }
      }
    };
    await Promise.all([push(instance()), push(instance()), push(instance())]);
    expect(grants).toHaveLength(20);
    expect(await slotUsage(handle.db, installBucket(9), new Date(Date.parse("2025-03-01T10:00:00Z")))).toBe(20);
  });

  it("counts a call near a minute boundary in both minutes it may land in", async () => {
    const nearEnd = Date.parse("2025-03-01T10:00:59.600Z");
    expect(windowsAround(nearEnd, 1_000)).toEqual([Date.parse("2025-03-01T10:00:00Z"), Date.parse("2025-03-01T10:01:00Z")]);
    expect(windowsAround(T0, 1_000)).toEqual([Date.parse("2025-03-01T10:00:00Z")]);
    const clock = fakeClock(nearEnd);
    const pacer = createPacer({ db: handle.db, now: clock.now, sleep: clock.sleep });
    await pacer.acquire(4, 101);
    expect(await slotUsage(handle.db, installBucket(4), new Date(Date.parse("2025-03-01T10:00:00Z")))).toBe(1);
    expect(await slotUsage(handle.db, installBucket(4), new Date(Date.parse("2025-03-01T10:01:00Z")))).toBe(1);
    expect(await slotUsage(handle.db, storeBucket(101), new Date(Date.parse("2025-03-01T10:01:00Z")))).toBe(1);
  });

  it("fails fast with rate_budget_exhausted when the wait would exceed maxWaitMs", async () => {
    const clock = fakeClock(T0);
    const pacer = createPacer({ db: handle.db, now: clock.now, sleep: clock.sleep }, { perInstall: 1, maxWaitMs: 5_000 });
    await pacer.acquire(5, 101);
    const error = await pacer.acquire(5, 101).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PlatformError);
    expect((error as PlatformError).code).toBe("rate_budget_exhausted");
    expect((error as PlatformError).isRateLimited).toBe(true);
    expect((error as PlatformError).retryAfter).toBeGreaterThanOrEqual(55);
    expect(clock.slept).toEqual([]);
  });

  it("marks the minute spent after a 429 whose Retry-After reaches the next minute, not for a short one", async () => {
    const clock = fakeClock(T0);
    const pacer = createPacer({ db: handle.db, now: clock.now, sleep: clock.sleep });
    const window = new Date(Date.parse("2025-03-01T10:00:00Z"));
    await pacer.onRateLimited(6, 2_000);
    expect(await slotUsage(handle.db, installBucket(6), window)).toBe(0);
    await pacer.onRateLimited(6, 55_000);
    expect(await slotUsage(handle.db, installBucket(6), window)).toBe(120);
  });

  it("deletes old minutes when a bucket opens a new one", async () => {
    const clock = fakeClock(T0);
    const pacer = createPacer({ db: handle.db, now: clock.now, sleep: clock.sleep });
    await pacer.acquire(8, 101);
    clock.ms += 5 * MINUTE_MS;
    await pacer.acquire(8, 101);
    const rows = rowsOf<{ window_start: unknown }>(await handle.db.execute(sql`select window_start from rate_buckets`));
    expect(rows).toHaveLength(2); // install and store buckets of the current minute only
  });
});
