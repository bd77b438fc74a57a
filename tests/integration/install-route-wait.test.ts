import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { NextRequest } from "next/server";
import type { DatabaseHandle } from "@/db/client";
import { rateBuckets } from "@/db/schema";
import { env } from "@/lib/env";
import { PEER_HEADER, peerProof, stampPeers } from "@/lib/http/peer-stamp";
import { setLogSink } from "@/lib/log";
import { INSTALLS_PER_ADDRESS, openShare, takeTokenBudget, TOKEN_ENDPOINT } from "@/lib/oauth/install-budget";
import { sealInstalledBefore } from "@/lib/oauth/returning-merchant";
import { createTestDatabase } from "@/tests/helpers/database";

/**
 * GET /install as Next runs it (the route handler with a request, Next's cookies() a cookie jar, a real database):
 * a merchant held back is sent to the waiting page with the minutes and a Retry-After header; a returning merchant's
 * "installed before" cookie is read under its __Host- name and lets it through to the consent screen.
 */

const next = vi.hoisted(() => ({
  jar: new Map<string, { value: string; options: Record<string, unknown> }>(),
  db: null as unknown,
}));

vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (next.jar.has(name) ? { name, value: next.jar.get(name)?.value } : undefined),
    set: (name: string, value: string, options: Record<string, unknown> = {}) => {
      next.jar.set(name, { value, options });
    },
  }),
}));
vi.mock("@/lib/database/app-database", () => ({ getDb: async () => next.db }));
// The callbacks here are held back before any token call: no job is ever sent.
vi.mock("@/lib/jobs/app", () => ({ getJobs: async () => ({}), workJobsAfterResponse: () => undefined }));
// A public deployment (budgets apply): the app and the platform off this machine.
const PUBLIC: Record<string, string> = {
  APP_URL: "https://app.example.com",
  SVC_AUTH_URL: "https://auth.platform.example",
  SVC_API_URL: "https://api.platform.example",
};
vi.mock("@/lib/env", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/env")>();
  return { ...real, env: new Proxy(real.env, { get: (target, key) => PUBLIC[key as string] ?? Reflect.get(target, key) }) };
});

let handle: DatabaseHandle;
let restoreLog: () => void;
let GET: (request: NextRequest) => Promise<Response>;
let callback: (request: NextRequest) => Promise<Response>;

beforeAll(async () => {
  handle = await createTestDatabase();
  next.db = handle.db;
  restoreLog = setLogSink(() => {});
  // Requests carry the peer as this process's stamp would write it.
  stampPeers();
  ({ GET } = await import("@/app/install/route"));
  ({ GET: callback } = await import("@/app/oauth/callback/route"));
});
afterAll(async () => {
  restoreLog?.();
  await handle?.close();
});
beforeEach(async () => {
  next.jar.clear();
  await handle.db.delete(rateBuckets);
});

const install = (address: string) =>
  GET(new NextRequest("https://app.example.com/install", { headers: { [PEER_HEADER]: `${peerProof()} ${address}`, "sec-fetch-site": "none" } }));

describe("GET /install while the open share is spent", () => {
  it("sends a new merchant to the waiting page with the minutes, and says the same in Retry-After", async () => {
    const now = new Date();
    for (let i = 0; i < openShare(TOKEN_ENDPOINT.max); i += 1) expect(await takeTokenBudget(handle.db, now)).toEqual({ ok: true });
    const response = await install("198.51.100.2");
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get("location")!);
    expect(`${location.origin}${location.pathname}`).toBe(`${env.APP_URL}/install/failed`);
    expect(location.searchParams.get("reason")).toBe("platform_busy");
    const minutes = Number(location.searchParams.get("minutes"));
    expect(minutes).toBeGreaterThanOrEqual(5);
    expect(minutes).toBeLessThanOrEqual(6);
    expect(response.headers.get("retry-after")).toBe(String(minutes * 60));
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it("lets a returning merchant's __Host- cookie through to the consent screen, with no Retry-After", async () => {
    const now = new Date();
    for (let i = 0; i < openShare(TOKEN_ENDPOINT.max); i += 1) expect(await takeTokenBudget(handle.db, now)).toEqual({ ok: true });
    const cookie = await sealInstalledBefore([101], [], env.SESSION_SECRET);
    // The plain name is development's: over https it proves nothing.
    next.jar.set("app_installed", { value: cookie, options: {} });
    expect((await install("198.51.100.2")).headers.get("location")).toContain("reason=platform_busy");
    next.jar.set("__Host-app_installed", { value: cookie, options: {} });
    const response = await install("198.51.100.2");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toContain(`${PUBLIC.SVC_AUTH_URL}/oauth/apps/authorize?`);
    expect(response.headers.get("retry-after")).toBeNull();
  });
});

describe("GET /install from an address that started too many", () => {
  it("waits out the address's window, in minutes and in Retry-After", async () => {
    for (let i = 0; i < INSTALLS_PER_ADDRESS.max; i += 1) expect((await install("203.0.113.7")).status).toBe(302);
    const response = await install("203.0.113.7");
    const location = new URL(response.headers.get("location")!);
    expect(location.searchParams.get("reason")).toBe("too_many_attempts");
    expect(response.headers.get("retry-after")).toBe(String(Number(location.searchParams.get("minutes")) * 60));
  });
});

describe("GET /oauth/callback held back", () => {
  it("sends the merchant to the waiting page with the minutes and Retry-After, without a token call", async () => {
    const started = await install("198.51.100.2");
    const state = new URL(started.headers.get("location")!).searchParams.get("state");
    expect(state).toBeTruthy();
    const now = new Date();
    for (let i = 0; i < openShare(TOKEN_ENDPOINT.max); i += 1) expect(await takeTokenBudget(handle.db, now)).toEqual({ ok: true });
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    const response = await callback(
      new NextRequest(`https://app.example.com/oauth/callback?state=${state}&code=${"ab".repeat(32)}`, {
        headers: { [PEER_HEADER]: `${peerProof()} 198.51.100.2` },
      }),
    );
    expect(fetchSpy).not.toHaveBeenCalled();
    fetchSpy.mockRestore();
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get("location")!);
    expect(location.searchParams.get("reason")).toBe("platform_busy");
    expect(response.headers.get("retry-after")).toBe(String(Number(location.searchParams.get("minutes")) * 60));
    // No install: no "installed before" cookie.
    expect(next.jar.has("__Host-app_installed")).toBe(false);
  });
});
