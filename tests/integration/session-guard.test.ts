import { sealData } from "iron-session";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { startBackfillRow } from "@/db/queries/backfills";
import { findSession, findSessionInstalls } from "@/db/queries/sessions";
import { orderBackfills, sessions } from "@/db/schema";
import { env } from "@/lib/env";
import { closedInstallStates } from "@/lib/installs/state";
import { saveInstalledStores } from "@/lib/installs/tokens";
import { liveAttempts } from "@/lib/oauth/install-attempts";
import { setLogSink } from "@/lib/log";
import {
  currentSession,
  currentSessionId,
  endAfterRead,
  endSession,
  endSessionsHoldingStore,
  getInstallAttemptCookie,
  installAttemptOptions,
  sessionOptions,
  startSession,
  touchAfterRead,
} from "@/lib/session";
import { signIn } from "@/lib/session-lifecycle";
import { ABSOLUTE_LIFETIME_MS, IDLE_TIMEOUT_MS, isSessionSecret, newSessionSecret, sessionIdOf } from "@/lib/session-policy";
import { requireStore } from "@/lib/tenancy";
import { receiveWebhookOutcome } from "@/lib/webhooks/receive";
import { sampleEnvelope } from "@/lib/webhooks/samples";
import { createTestDatabase } from "@/tests/helpers/database";
import { saveFixtureStores } from "@/tests/helpers/fixture-stores";
import { signedWebhookRequest } from "../helpers/webhook-request";

/**
 * The cookie side of sessions and the tenancy guard itself (requireStore), as a page runs them: Next's cookies(),
 * after() and notFound() are stood in for by a cookie jar, a queue of after-response work and a thrown error,
 * and the database is a real one. What a browser can hold is what is tried: no cookie, a cookie of a session with
 * the store or without it, one whose store was uninstalled, and forged ones.
 */

type Cookie = { value: string; options: Record<string, unknown> };

const next = vi.hoisted(() => ({
  jar: new Map<string, { value: string; options: Record<string, unknown> }>(),
  afterQueue: [] as (() => Promise<unknown>)[],
  db: null as unknown,
  production: false,
  appUrl: null as string | null,
}));

class NotFound extends Error {}

vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (next.jar.has(name) ? { name, value: next.jar.get(name)?.value } : undefined),
    set: (name: string, value: string, options: Record<string, unknown> = {}) => {
      next.jar.set(name, { value, options });
    },
  }),
}));
vi.mock("next/server", () => ({
  after: (work: () => Promise<unknown>) => {
    next.afterQueue.push(work);
  },
}));
vi.mock("next/navigation", () => ({
  notFound: () => {
    throw new NotFound("NEXT_NOT_FOUND");
  },
}));
vi.mock("@/lib/database/app-database", () => ({ getDb: async () => next.db }));
vi.mock("@/lib/env", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/env")>();
  return {
    ...real,
    env: new Proxy(real.env, {
      get: (target, key) =>
        key === "NODE_ENV" && next.production
          ? "production"
          : key === "APP_URL" && next.appUrl
            ? next.appUrl
            : Reflect.get(target, key),
    }),
  };
});

// Read from env, not from sessionOptions(): code of lib/session.ts run while this file loads would count, for
// Stryker, as run by no test in particular (a "static" mutant), and each of its mutants would rerun the whole file.
const PASSWORD = env.SESSION_SECRET;
const SECRET = "svcwhsec_" + "5e".repeat(24);
const T0 = new Date("2026-05-01T08:00:00.000Z");
const at = (ms: number) => new Date(T0.getTime() + ms);

let handle: DatabaseHandle;
let restoreLog: () => void;

/** Runs what the page left for after the response, as Next does once it is sent. */
async function runAfterResponse(): Promise<void> {
  const queued = next.afterQueue.splice(0);
  for (const work of queued) await work();
}

/** A cookie sealed as the app seals it, but without an expiry of its own: the server's limits are what is tested. */
async function sealCookie(name: string, data: Record<string, unknown>, password = PASSWORD): Promise<void> {
  next.jar.set(name, { value: await sealData(data, { password, ttl: 0 }), options: {} });
}

/** A browser holding a session of these stores, opened at `now`: its cookie is in the jar. */
async function browserWithSession(storeIds: number[], now = T0): Promise<string> {
  const { secret, id } = await signIn(handle.db, { previousId: null, storeIds, now });
  await sealCookie("app_session", { sid: secret });
  return id;
}

async function refused(storeId: string): Promise<boolean> {
  try {
    await requireStore(storeId);
    return false;
  } catch (error) {
    if (error instanceof NotFound) return true;
    throw error;
  }
}

function clockAt(now: Date): void {
  vi.useFakeTimers({ now, toFake: ["Date"] });
}

beforeAll(async () => {
  handle = await createTestDatabase();
  next.db = handle.db;
  restoreLog = setLogSink(() => {});
  await saveFixtureStores(handle.db);
});
afterAll(async () => {
  restoreLog?.();
  await handle?.close();
});
beforeEach(async () => {
  next.jar.clear();
  next.afterQueue.length = 0;
  next.production = false;
  next.appUrl = null;
  await handle.db.delete(sessions);
  await handle.db.delete(orderBackfills);
});
afterEach(() => {
  vi.useRealTimers();
});

describe("requireStore, the tenancy guard", () => {
  it("opens a store of this browser's session, with its install row", async () => {
    clockAt(T0);
    await browserWithSession([101, 102]);
    const access = await requireStore("102");
    expect(access.storeId).toBe(102);
    expect(access.install).toMatchObject({ storeId: 102, storeName: "Amina Maison", state: "active" });
    expect(Object.keys(access).sort()).toEqual(["install", "storeId"]);
  });

  it("answers not found without a session cookie", async () => {
    clockAt(T0);
    expect(await refused("101")).toBe(true);
  });

  it("answers not found for a store the session does not hold, though it is installed", async () => {
    clockAt(T0);
    await browserWithSession([101]);
    expect(await refused("201")).toBe(true);
    expect(await refused("101")).toBe(false);
  });

  it("answers not found once the store is uninstalled, and keeps the session's other stores open", async () => {
    clockAt(T0);
    await saveInstalledStores(handle.db, {
      scopes: ["orders:read"],
      stores: [{ storeId: 301, storeName: "Leaving Store", installId: 30, accessToken: "svcpk_live_d" }],
    });
    await browserWithSession([101, 301]);
    expect(await refused("301")).toBe(false);
    vi.useRealTimers();
    const request = signedWebhookRequest(sampleEnvelope("app.uninstalled", { storeId: 301, installId: 30, at: new Date() }), SECRET);
    expect((await receiveWebhookOutcome(request, { db: handle.db, secret: SECRET })).status).toBe(200);
    clockAt(T0);
    expect(await refused("301")).toBe(true);
    expect(await refused("101")).toBe(false);
  });

  it("answers not found for forged ids: in the URL, in the cookie, or a cookie sealed without the server's secret", async () => {
    clockAt(T0);
    await browserWithSession([101]);
    for (const id of ["abc", "0101", "-101", "101 ", "2147483648"]) expect(await refused(id)).toBe(true);
    // A well-formed secret that opens no session.
    await sealCookie("app_session", { sid: newSessionSecret() });
    expect(await refused("101")).toBe(true);
    // The session's database id in place of its secret: the id is not a secret, so it opens nothing.
    const { id } = await signIn(handle.db, { previousId: null, storeIds: [101], now: T0 });
    await sealCookie("app_session", { sid: id });
    expect(await refused("101")).toBe(true);
    // A real secret sealed with another password: the seal does not open, the cookie is ignored.
    const { secret } = await signIn(handle.db, { previousId: null, storeIds: [101], now: T0 });
    await sealCookie("app_session", { sid: secret }, "another-password-of-at-least-32-characters");
    expect(await refused("101")).toBe(true);
    next.jar.set("app_session", { value: "not-a-seal", options: {} });
    expect(await refused("101")).toBe(true);
  });

  it("ends an expired session: not found now, and the row deleted after the response", async () => {
    clockAt(T0);
    const id = await browserWithSession([101]);
    clockAt(at(IDLE_TIMEOUT_MS));
    expect(await refused("101")).toBe(true);
    expect(await findSession(handle.db, id)).not.toBeNull();
    await runAfterResponse();
    expect(await findSession(handle.db, id)).toBeNull();
  });

  it("leaves a live session's row alone when it refuses a store it does not hold", async () => {
    clockAt(T0);
    const id = await browserWithSession([101]);
    expect(await refused("201")).toBe(true);
    await runAfterResponse();
    expect(await findSession(handle.db, id)).toEqual({ createdAt: T0, lastSeenAt: T0 });
  });

  it("moves last_seen_at after the response once a minute has passed, not before", async () => {
    clockAt(T0);
    const id = await browserWithSession([101]);
    clockAt(at(59_999));
    await requireStore("101");
    expect(next.afterQueue).toHaveLength(0);
    clockAt(at(60_000));
    await requireStore("101");
    await runAfterResponse();
    expect(await findSession(handle.db, id)).toEqual({ createdAt: T0, lastSeenAt: at(60_000) });
  });
});

describe("the session cookie", () => {
  it("is httpOnly, SameSite=Lax, for the whole site, lives 24 hours (the session's 12, then 12 to explain its end) and carries only a random secret", async () => {
    clockAt(T0);
    await startSession(handle.db, [101]);
    const cookie = next.jar.get("app_session") as Cookie;
    expect(cookie.options).toEqual({ httpOnly: true, secure: false, sameSite: "lax", path: "/", maxAge: (2 * ABSOLUTE_LIFETIME_MS) / 1000 - 60 });
    const id = await currentSessionId();
    expect(id).toMatch(/^[0-9a-f]{64}$/);
    expect(cookie.value).not.toContain(id);
    expect((await findSessionInstalls(handle.db, id as string, { closedStates: closedInstallStates() }))?.installs.map((install) => install.storeId)).toEqual([101]);
  });

  it("is Secure in production", async () => {
    next.production = true;
    expect(sessionOptions().cookieOptions).toMatchObject({ secure: true, httpOnly: true });
    expect(installAttemptOptions().cookieOptions).toMatchObject({ secure: true, httpOnly: true });
  });

  it("is __Host- (Secure, Path=/, no Domain) when served over https, the install cookie too; plain over http://localhost", async () => {
    next.production = true;
    next.appUrl = "https://app.example.com";
    clockAt(T0);
    await startSession(handle.db, [101]);
    expect([...next.jar.keys()]).toEqual(["__Host-app_session"]);
    const cookie = next.jar.get("__Host-app_session") as Cookie;
    expect(cookie.options).toMatchObject({ secure: true, path: "/" });
    expect(cookie.options).not.toHaveProperty("domain");
    expect(await currentSessionId()).toMatch(/^[0-9a-f]{64}$/);
    expect(installAttemptOptions()).toMatchObject({ cookieName: "__Host-app_install", cookieOptions: { secure: true, path: "/" } });
    expect(installAttemptOptions().cookieOptions).not.toHaveProperty("domain");
    // A development server reached over https (a tunnel) gets the prefix and Secure as well.
    next.production = false;
    expect(sessionOptions()).toMatchObject({ cookieName: "__Host-app_session", cookieOptions: { secure: true } });
    next.appUrl = "http://localhost:3000";
    expect(sessionOptions()).toMatchObject({ cookieName: "app_session", cookieOptions: { secure: false } });
    expect(installAttemptOptions().cookieName).toBe("app_install");
  });

  it("names no session when absent, malformed or holding something other than a secret", async () => {
    expect(await currentSessionId()).toBeNull();
    for (const sid of [undefined, 42, "short", "x".repeat(44), `${"a".repeat(42)}!`]) {
      await sealCookie("app_session", sid === undefined ? {} : { sid });
      expect(await currentSessionId()).toBeNull();
    }
    const secret = newSessionSecret();
    await sealCookie("app_session", { sid: secret });
    expect(await currentSessionId()).toBe(sessionIdOf(secret));
  });

  it("signing in again in this browser carries its stores into a new session and ends the old one", async () => {
    clockAt(T0);
    await startSession(handle.db, [101]);
    const first = (await currentSessionId()) as string;
    await startSession(handle.db, [102]);
    const second = (await currentSessionId()) as string;
    expect(second).not.toBe(first);
    expect(await findSession(handle.db, first)).toBeNull();
    expect((await currentSession())?.installs.map((install) => install.storeId)).toEqual([101, 102]);
  });

  it("a cookie of no live session does not carry anything into the next sign-in", async () => {
    clockAt(T0);
    await sealCookie("app_session", { sid: "forged" });
    await startSession(handle.db, [102]);
    expect((await currentSession())?.installs.map((install) => install.storeId)).toEqual([102]);
  });

  it("signing out ends the session on the server; the cookie stays, to be told so (lib/lost-access.ts), opening nothing", async () => {
    clockAt(T0);
    await startSession(handle.db, [101]);
    const id = (await currentSessionId()) as string;
    const copy = next.jar.get("app_session") as Cookie;
    await endSession(handle.db);
    expect(await findSession(handle.db, id)).toBeNull();
    expect(next.jar.get("app_session")?.value).toBe(copy.value);
    expect(await currentSession()).toBeNull();
    // A copy of the old cookie opens nothing either.
    next.jar.set("app_session", copy);
    expect(await currentSession()).toBeNull();
    expect(await refused("101")).toBe(true);
  });

  it("signing out with a cookie that names no session clears it and ends nobody else's", async () => {
    clockAt(T0);
    const other = await browserWithSession([101]);
    await sealCookie("app_session", { sid: "garbage" });
    await endSession(handle.db);
    expect(next.jar.get("app_session")).toEqual({ value: "", options: { httpOnly: true, secure: false, sameSite: "lax", path: "/", maxAge: 0 } });
    expect(await findSession(handle.db, other)).not.toBeNull();
    next.jar.clear();
    await endSession(handle.db);
    expect(next.jar.get("app_session")?.value).toBe("");
    expect(await findSession(handle.db, other)).not.toBeNull();
  });
});

describe("the session cookie's value", () => {
  it("is the bare secret, read without any key derivation; a cookie sealed by an earlier version still opens its session", async () => {
    clockAt(T0);
    await startSession(handle.db, [101]);
    const cookie = next.jar.get("app_session") as Cookie;
    expect(isSessionSecret(cookie.value)).toBe(true);
    expect(await currentSessionId()).toBe(sessionIdOf(cookie.value));
    const sealed = await browserWithSession([102]);
    expect(next.jar.get("app_session")?.value).toMatch(/^Fe26\.2\*/);
    expect(await currentSessionId()).toBe(sealed);
    expect(await refused("102")).toBe(false);
  });

  it("opens nothing when it is a well-formed secret of no session, or a session's id instead of its secret", async () => {
    clockAt(T0);
    const id = await browserWithSession([101]);
    next.jar.set("app_session", { value: newSessionSecret(), options: {} });
    expect(await currentSession()).toBeNull();
    expect(await refused("101")).toBe(true);
    next.jar.set("app_session", { value: id, options: {} });
    expect(await currentSessionId()).toBeNull();
    expect(await refused("101")).toBe(true);
  });
});

describe("currentSession", () => {
  it("is the live session with its open stores, and asks for no write right after sign-in", async () => {
    clockAt(T0);
    const id = await browserWithSession([102, 101]);
    expect(await currentSession()).toEqual({
      id,
      installs: [expect.objectContaining({ storeId: 101 }), expect.objectContaining({ storeId: 102 })],
      backfills: new Map(),
    });
    expect(next.afterQueue).toHaveLength(0);
  });

  it("carries each open store's order import, read in the same statement (the store pages' import notice)", async () => {
    clockAt(T0);
    const id = await browserWithSession([102, 101]);
    await startBackfillRow(handle.db, { storeId: 101, runId: "run-101", at: T0 });
    // A store outside the session: its import is not this browser's to see.
    await startBackfillRow(handle.db, { storeId: 201, runId: "run-201", at: T0 });
    const session = await currentSession();
    expect(session?.id).toBe(id);
    expect([...(session?.backfills.keys() ?? [])]).toEqual([101]);
    expect(session?.backfills.get(101)).toMatchObject({ storeId: 101, runId: "run-101", status: "running", imported: 0 });
  });

  it("is null without a cookie, or for a secret the database does not know", async () => {
    expect(await currentSession()).toBeNull();
    await sealCookie("app_session", { sid: newSessionSecret() });
    expect(await currentSession()).toBeNull();
    expect(next.afterQueue).toHaveLength(0);
  });

  it("is null once expired, and the row is deleted after the response", async () => {
    clockAt(T0);
    const id = await browserWithSession([101]);
    clockAt(at(ABSOLUTE_LIFETIME_MS));
    expect(await currentSession()).toBeNull();
    await runAfterResponse();
    expect(await findSession(handle.db, id)).toBeNull();
  });

  it("moves last_seen_at after the response once a minute has passed", async () => {
    clockAt(T0);
    const id = await browserWithSession([101]);
    clockAt(at(60_000));
    expect((await currentSession())?.id).toBe(id);
    await runAfterResponse();
    expect((await findSession(handle.db, id))?.lastSeenAt).toEqual(at(60_000));
  });
});

describe("touchAfterRead and endAfterRead", () => {
  it("touches or ends the session it names, and only after the response", async () => {
    const touched = await browserWithSession([101]);
    const ended = (await signIn(handle.db, { previousId: null, storeIds: [101], now: T0 })).id;
    touchAfterRead(handle.db, touched, at(5 * 60_000));
    endAfterRead(handle.db, ended, at(5 * 60_000));
    expect(await findSession(handle.db, ended)).not.toBeNull();
    await runAfterResponse();
    expect(await findSession(handle.db, touched)).toEqual({ createdAt: T0, lastSeenAt: at(5 * 60_000) });
    expect(await findSession(handle.db, ended)).toBeNull();
  });

  it("never fails the request it follows when the database does", async () => {
    const broken = {
      update: () => {
        throw new Error("database down");
      },
      delete: () => {
        throw new Error("database down");
      },
    } as unknown as typeof handle.db;
    touchAfterRead(broken, "0".repeat(64), T0);
    endAfterRead(broken, "0".repeat(64), T0);
    await expect(runAfterResponse()).resolves.toBeUndefined();
  });
});

describe("the install attempt cookie", () => {
  it("lives exactly as long as the platform's consent request, with the session cookie's protections", async () => {
    const cookie = await getInstallAttemptCookie();
    const attempt = { state: "s", codeVerifier: "v", startedAt: T0.getTime(), returnTo: "/stores/101/orders" };
    cookie.attempts = [attempt];
    await cookie.save();
    const saved = next.jar.get("app_install") as Cookie;
    expect(saved.options).toEqual({ httpOnly: true, secure: false, sameSite: "lax", path: "/", maxAge: 10 * 60 });
    expect(installAttemptOptions().cookieName).not.toBe(sessionOptions().cookieName);
    expect(liveAttempts((await getInstallAttemptCookie()).attempts, T0.getTime())).toEqual([attempt]);
  });

  it("counts as no attempt unless state, verifier and start time all have their types", () => {
    const now = T0.getTime();
    const good = { state: "s", codeVerifier: "v", startedAt: now };
    expect(liveAttempts([good], now)).toEqual([{ ...good, returnTo: null }]);
    for (const bad of [{}, { codeVerifier: "v", startedAt: now }, { state: "s", startedAt: now }, { state: "s", codeVerifier: "v" }, { ...good, startedAt: String(now) }]) {
      expect(liveAttempts([bad], now)).toEqual([]);
    }
  });
});

describe("sign out everywhere", () => {
  it("ends every session holding the store, this browser's included, and leaves sessions without it", async () => {
    clockAt(T0);
    const laptop = await browserWithSession([101, 102]);
    const elsewhere = await browserWithSession([102]);
    // This browser: a fresh consent of its own, not a hand-over from the cookie sealed for `elsewhere`.
    next.jar.clear();
    await startSession(handle.db, [101]);
    const own = (await currentSessionId()) as string;

    expect(await endSessionsHoldingStore(handle.db, 101)).toBe(2);
    expect(await findSession(handle.db, laptop)).toBeNull();
    expect(await findSession(handle.db, own)).toBeNull();
    expect(await findSession(handle.db, elsewhere)).not.toBeNull();
    // The cookie stays, naming an ended session: this browser is told it was signed out everywhere.
    expect(await currentSessionId()).toBe(own);
    expect(await currentSession()).toBeNull();
  });
});
