import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { endedGrants, sessions } from "@/db/schema";
import { env } from "@/lib/env";
import { setLogSink } from "@/lib/log";
import { INSTALLED_BEFORE_TTL_SECONDS, installedBeforeStores, sealInstalledBefore } from "@/lib/oauth/returning-merchant";
import { browserReturningProof, rememberInstalledStores } from "@/lib/session";
import { signIn, signOut } from "@/lib/session-lifecycle";
import { createTestDatabase } from "@/tests/helpers/database";
import { saveFixtureStores } from "@/tests/helpers/fixture-stores";

/**
 * The returning merchant's proof as the routes read and write it (lib/session.ts): Next's cookies() is a cookie jar,
 * the database a real one. /oauth/callback keeps the "installed before" cookie after a consent; /install and the
 * callback read the proof the browser presents, from that cookie or the session cookie.
 */

const next = vi.hoisted(() => ({
  jar: new Map<string, { value: string; options: Record<string, unknown> }>(),
  db: null as unknown,
  appUrl: null as string | null,
}));

vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (next.jar.has(name) ? { name, value: next.jar.get(name)?.value } : undefined),
    set: (name: string, value: string, options: Record<string, unknown> = {}) => {
      next.jar.set(name, { value, options });
    },
  }),
}));
vi.mock("next/server", () => ({ after: () => undefined }));
vi.mock("@/lib/database/app-database", () => ({ getDb: async () => next.db }));
vi.mock("@/lib/env", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/env")>();
  return {
    ...real,
    env: new Proxy(real.env, { get: (target, key) => (key === "APP_URL" && next.appUrl ? next.appUrl : Reflect.get(target, key)) }),
  };
});

const PASSWORD = env.SESSION_SECRET;
let handle: DatabaseHandle;
let restoreLog: () => void;
const warnings: string[] = [];

beforeAll(async () => {
  handle = await createTestDatabase();
  next.db = handle.db;
  restoreLog = setLogSink((line) => warnings.push(line));
  await saveFixtureStores(handle.db);
});
afterAll(async () => {
  restoreLog?.();
  await handle?.close();
});
beforeEach(async () => {
  next.jar.clear();
  next.appUrl = null;
  warnings.length = 0;
  await handle.db.delete(sessions);
  await handle.db.delete(endedGrants);
});

describe("keeping the \"installed before\" cookie after a consent", () => {
  it("is HttpOnly, SameSite=Lax, Path=/, a year long, and names the stores (extended, never replaced)", async () => {
    await rememberInstalledStores([103]);
    const first = next.jar.get("app_installed");
    expect(first?.options).toEqual({ httpOnly: true, secure: false, sameSite: "lax", path: "/", maxAge: INSTALLED_BEFORE_TTL_SECONDS - 60 });
    expect(await installedBeforeStores(first?.value, PASSWORD)).toEqual([103]);
    await rememberInstalledStores([101]);
    expect(await installedBeforeStores(next.jar.get("app_installed")?.value, PASSWORD)).toEqual([101, 103]);
    expect(JSON.stringify([...next.jar.keys()])).toBe('["app_installed"]');
  });

  it("over https is __Host-app_installed and Secure, like the session cookie", async () => {
    next.appUrl = "https://app.example.com";
    await rememberInstalledStores([101]);
    expect([...next.jar.keys()]).toEqual(["__Host-app_installed"]);
    expect(next.jar.get("__Host-app_installed")?.options).toMatchObject({ secure: true, httpOnly: true, path: "/", sameSite: "lax" });
  });
});

describe("the proof a browser presents", () => {
  it("by its \"installed before\" cookie, under the name the app's scheme gives it", async () => {
    next.jar.set("app_installed", { value: await sealInstalledBefore([103, 101], [], PASSWORD), options: {} });
    expect(await browserReturningProof(handle.db)).toBe("store:101");
    next.appUrl = "https://app.example.com";
    // Over https only the __Host- cookie counts.
    expect(await browserReturningProof(handle.db)).toBeNull();
  });

  it("by its session cookie, live or signed out", async () => {
    const { secret, id } = await signIn(handle.db, { previousId: null, storeIds: [102], now: new Date() });
    next.jar.set("app_session", { value: secret, options: {} });
    expect(await browserReturningProof(handle.db)).toBe("store:102");
    await signOut(handle.db, id);
    expect(await browserReturningProof(handle.db)).toBe("store:102");
  });

  it("is none without either, or with a cookie sealed by another secret, and a database failure is none too", async () => {
    expect(await browserReturningProof(handle.db)).toBeNull();
    next.jar.set("app_installed", { value: await sealInstalledBefore([101], [], `${PASSWORD}-elsewhere`), options: {} });
    expect(await browserReturningProof(handle.db)).toBeNull();
    next.jar.set("app_session", { value: "a".repeat(43), options: {} });
    const broken = { execute: async () => Promise.reject(new Error("database down")) } as unknown as typeof handle.db;
    expect(await browserReturningProof(broken)).toBeNull();
    expect(warnings.filter((line) => line.includes("returning merchant's proof unreadable"))).toHaveLength(1);
  });
});
