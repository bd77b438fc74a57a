import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { findEndedGrant, findSession } from "@/db/queries/sessions";
import { sessions } from "@/db/schema";
import { renderMetrics } from "@/lib/observability/registry";
import { currentSession } from "@/lib/session";
import { signIn } from "@/lib/session-lifecycle";
import { ABSOLUTE_LIFETIME_MS, IDLE_TIMEOUT_MS } from "@/lib/session-policy";
import { createTestDatabase } from "@/tests/helpers/database";
import { saveFixtureStores } from "@/tests/helpers/fixture-stores";
import { sampleValue } from "@/tests/helpers/metrics-text";

/**
 * What a page's session read counts: a session found past one of its limits is counted as ended, with the limit
 * as its reason, when the page finds it (its row is deleted after the response, its stores remembered as expired).
 * A live session counts nothing.
 * Next's cookies() and after() are stood in for by a cookie jar holding the bare secret and a queue, as in
 * session-guard.test.ts; the database is a real one.
 */

const next = vi.hoisted(() => ({
  jar: new Map<string, string>(),
  afterQueue: [] as (() => Promise<unknown>)[],
  db: null as unknown,
}));

vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (next.jar.has(name) ? { name, value: next.jar.get(name) } : undefined),
    set: (name: string, value: string) => {
      next.jar.set(name, value);
    },
  }),
}));
vi.mock("next/server", () => ({
  after: (work: () => Promise<unknown>) => {
    next.afterQueue.push(work);
  },
}));
vi.mock("@/lib/database/app-database", () => ({ getDb: async () => next.db }));

const ENDED = "store_app_sessions_ended_total";
const T0 = new Date("2026-05-01T08:00:00.000Z");

let handle: DatabaseHandle;

async function ended(reason: string): Promise<number> {
  return sampleValue(await renderMetrics(), ENDED, { reason });
}

/** A browser whose session opened at T0, read by a page at `now`. */
async function readSessionAt(now: Date): Promise<{ id: string; session: Awaited<ReturnType<typeof currentSession>> }> {
  const { secret, id } = await signIn(handle.db, { previousId: null, storeIds: [101], now: T0 });
  next.jar.set("app_session", secret);
  vi.useFakeTimers({ now, toFake: ["Date"] });
  try {
    return { id, session: await currentSession() };
  } finally {
    vi.useRealTimers();
  }
}

beforeAll(async () => {
  handle = await createTestDatabase();
  next.db = handle.db;
  await saveFixtureStores(handle.db);
});
afterAll(async () => {
  await handle?.close();
});
beforeEach(async () => {
  next.jar.clear();
  next.afterQueue.length = 0;
  await handle.db.delete(sessions);
});

describe("a page's session read", () => {
  it("counts a session found idle for 30 minutes as ended, idle_expired, and deletes it after the response", async () => {
    const [idle, lifetime] = [await ended("idle_expired"), await ended("lifetime_expired")];
    const { id, session } = await readSessionAt(new Date(T0.getTime() + IDLE_TIMEOUT_MS));
    expect(session).toBeNull();
    expect(await ended("idle_expired")).toBe(idle + 1);
    expect(await ended("lifetime_expired")).toBe(lifetime);
    for (const work of next.afterQueue.splice(0)) await work();
    expect(await findSession(handle.db, id)).toBeNull();
    // Remembered as expired, not signed out: lib/lost-access.ts tells this browser its session ended.
    expect((await findEndedGrant(handle.db, id, 101))?.reason).toBe("expired");
  });

  it("counts a session found past its 12 hours as ended, lifetime_expired", async () => {
    const [idle, lifetime] = [await ended("idle_expired"), await ended("lifetime_expired")];
    // Its last request a minute ago: only the absolute lifetime ends it.
    const { secret, id } = await signIn(handle.db, { previousId: null, storeIds: [101], now: T0 });
    await handle.db.update(sessions).set({ lastSeenAt: new Date(T0.getTime() + ABSOLUTE_LIFETIME_MS - 60_000) });
    next.jar.set("app_session", secret);
    vi.useFakeTimers({ now: new Date(T0.getTime() + ABSOLUTE_LIFETIME_MS), toFake: ["Date"] });
    try {
      expect(await currentSession()).toBeNull();
    } finally {
      vi.useRealTimers();
    }
    expect(await ended("lifetime_expired")).toBe(lifetime + 1);
    expect(await ended("idle_expired")).toBe(idle);
    expect(await findSession(handle.db, id)).not.toBeNull();
  });

  it("counts nothing for a live session", async () => {
    const [idle, lifetime] = [await ended("idle_expired"), await ended("lifetime_expired")];
    const { id, session } = await readSessionAt(new Date(T0.getTime() + IDLE_TIMEOUT_MS - 1));
    expect(session?.id).toBe(id);
    expect([await ended("idle_expired"), await ended("lifetime_expired")]).toEqual([idle, lifetime]);
  });
});
