import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { listAllInstalls } from "@/db/queries/installs";
import { installs, rateBuckets, spentInstallStates } from "@/db/schema";
import { startEmulator } from "@/emulator/src/index";
import type { PgBoss } from "pg-boss";
import { keyRing } from "@/lib/crypto/token-cipher";
import { startBoss } from "@/lib/jobs/boss";
import { DEV_APP } from "@/lib/dev-app";
import { setLogSink } from "@/lib/log";
import { completeInstall } from "@/lib/oauth/complete-install";
import {
  admitTokenCall,
  budgetConfig,
  budgetedClient,
  CALLBACKS_PER_ADDRESS,
  installHold,
  INSTALLS_PER_ADDRESS,
  stateHash,
  takeAddressBudget,
  takeTokenBudget,
  TOKEN_ENDPOINT,
  tokenBudgetOpen,
} from "@/lib/oauth/install-budget";
import { startInstallAttempt, type InstallAttempt } from "@/lib/oauth/pkce";
import { authorizeUrl, type OAuthClient } from "@/lib/oauth/token-client";
import { APP_USER_AGENT } from "@/lib/platform";
import { createTestDatabase } from "@/tests/helpers/database";

/**
 * The install flow under a flood, against the in-process emulator with its OAuth limits on (60 token calls per
 * 300 s per client, and every call the app makes comes from the same client): bogus callbacks from one address
 * must not spend the budget a real merchant's consent needs. The budgets themselves are checked with a chosen
 * clock against a real database.
 */

const APP_URL = "http://localhost:3998";
const ring = keyRing(Buffer.alloc(32, 9).toString("base64"));
const ATTACKER = "203.0.113.7";
const MERCHANT = "198.51.100.2";
const MINUTE = 60_000;
const T0 = new Date("2026-05-01T08:00:30.000Z");
const at = (ms: number) => new Date(T0.getTime() + ms);

let emulator: Awaited<ReturnType<typeof startEmulator>>;
let handle: DatabaseHandle;
let client: OAuthClient;
// A sender only: the installs' order imports wait in the queue, no worker takes them.
let jobs: PgBoss;
let restoreLog: () => void;
/** What the operator reads: a flood must show in the log as what it is, callbacks held back, each with its reason. */
const logLines: string[] = [];
let tokenCalls = 0;
const realFetch = globalThis.fetch;

beforeAll(async () => {
  [emulator, handle] = await Promise.all([
    startEmulator({ port: 0, appUrl: APP_URL, dataFile: null, autoTick: false }),
    createTestDatabase(),
  ]);
  client = {
    authUrl: emulator.url,
    clientId: DEV_APP.clientId,
    clientSecret: DEV_APP.clientSecret,
    redirectUri: `${APP_URL}/oauth/callback`,
    userAgent: APP_USER_AGENT,
  };
  restoreLog = setLogSink((line) => logLines.push(line));
  jobs = await startBoss(handle);
});
afterAll(async () => {
  restoreLog?.();
  await jobs?.stop({ graceful: false, close: true });
  await Promise.all([emulator?.close(), handle?.close()]);
});
beforeEach(async () => {
  await handle.db.delete(installs);
  await handle.db.delete(rateBuckets);
  await handle.db.delete(spentInstallStates);
  tokenCalls = 0;
  logLines.length = 0;
  // Counts the requests that reach the token endpoint; every request still goes out over real HTTP.
  vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
    if (String(input instanceof Request ? input.url : input).endsWith("/oauth/apps/token")) tokenCalls += 1;
    return realFetch(input, init);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

const BROWSER = { "user-agent": "Mozilla/5.0 (integration test)" };

/** The merchant's consent on the emulator's screen: sign in, tick stores, approve. */
async function consent(storeIds: number[]): Promise<{ attempt: InstallAttempt; callback: URLSearchParams }> {
  const { attempt, codeChallenge } = await startInstallAttempt();
  const cookie = "emu_merchant=1";
  const page = await fetch(authorizeUrl(client, { state: attempt.state, codeChallenge }), { headers: { ...BROWSER, cookie } });
  const requestId = /name="request_id" value="([^"]+)"/.exec(await page.text())?.[1];
  expect(requestId).toBeTruthy();
  const form = new URLSearchParams({ request_id: requestId! });
  for (const storeId of storeIds) form.append("store_id", String(storeId));
  const answer = await fetch(`${emulator.url}/oauth/apps/approve`, {
    method: "POST",
    headers: { ...BROWSER, cookie, "content-type": "application/x-www-form-urlencoded" },
    body: form,
    redirect: "manual",
  });
  return { attempt, callback: new URL(answer.headers.get("location")!).searchParams };
}

/** What an attacker gets for free: an attempt from GET /install and a callback with a made-up code. */
async function bogusCallback(address: string) {
  const { attempt } = await startInstallAttempt();
  const params = new URLSearchParams({ state: attempt.state, code: randomBytes(32).toString("hex") });
  return completeInstall(handle.db, { params, attempt, client, admission: { address }, ring, jobs });
}

describe("the install flow under a flood (emulator's token limit on)", () => {
  it("70 bogus callbacks from one address make at most 10 token calls; a merchant elsewhere installs right after", async () => {
    const outcomes = [];
    for (let i = 0; i < 70; i += 1) outcomes.push(await bogusCallback(ATTACKER));
    expect(tokenCalls).toBeLessThanOrEqual(10);
    expect(tokenCalls).toBeGreaterThan(0);
    const held = outcomes.filter((outcome) => !outcome.ok && outcome.reason === "too_many_attempts");
    expect(held.length).toBeGreaterThanOrEqual(60);
    for (const outcome of held) expect(outcome).toMatchObject({ retryAfterMs: expect.any(Number) });
    const heldLines = logLines.filter((line) => line.includes("install callback held back") && line.includes("too_many_attempts"));
    expect(heldLines).toHaveLength(held.length);

    const { attempt, callback } = await consent([101, 103]);
    const before = tokenCalls;
    const outcome = await completeInstall(handle.db, { params: callback, attempt, client, admission: { address: MERCHANT }, ring, jobs });
    expect(outcome.ok).toBe(true);
    expect(tokenCalls).toBe(before + 1);
    expect((await listAllInstalls(handle.db)).map((row) => row.storeId)).toEqual([101, 103]);
  });

  it("a replayed callback never reaches the token endpoint", async () => {
    const { attempt, callback } = await consent([101]);
    expect((await completeInstall(handle.db, { params: callback, attempt, client, admission: { address: MERCHANT }, ring, jobs })).ok).toBe(true);
    const calls = tokenCalls;
    // The same attempt (a copy of the attempt cookie) with the same answer, from anywhere.
    expect(await completeInstall(handle.db, { params: callback, attempt, client, admission: { address: ATTACKER }, ring, jobs })).toEqual({
      ok: false,
      reason: "expired",
    });
    expect(tokenCalls).toBe(calls);
    const stored = await handle.db.select().from(spentInstallStates);
    expect(stored.map((row) => row.stateHash)).toEqual([stateHash(attempt.state)]);
    expect(JSON.stringify(stored)).not.toContain(attempt.state);
  });
});

describe("install budgets (chosen clock)", () => {
  it("a client address gets 5 callbacks that reach the token endpoint per ten-minute window", async () => {
    for (let i = 0; i < CALLBACKS_PER_ADDRESS.max; i += 1) {
      expect(await takeAddressBudget(handle.db, { kind: "callback", address: ATTACKER, now: T0 })).toEqual({ ok: true });
    }
    // The window is 08:00–08:10; 30 s of it have passed.
    expect(await takeAddressBudget(handle.db, { kind: "callback", address: ATTACKER, now: T0 })).toEqual({
      ok: false,
      retryAfterMs: 9.5 * MINUTE,
    });
    expect(await takeAddressBudget(handle.db, { kind: "callback", address: MERCHANT, now: T0 })).toEqual({ ok: true });
    expect(await takeAddressBudget(handle.db, { kind: "install", address: ATTACKER, now: T0 })).toEqual({ ok: true });
    expect((await takeAddressBudget(handle.db, { kind: "callback", address: ATTACKER, now: at(9.5 * MINUTE - 1) })).ok).toBe(false);
    expect(await takeAddressBudget(handle.db, { kind: "callback", address: ATTACKER, now: at(9.5 * MINUTE) })).toEqual({ ok: true });
  });

  it("/install holds an address past its installs, and sends nobody to a consent while the token budget is spent", async () => {
    for (let i = 0; i < INSTALLS_PER_ADDRESS.max; i += 1) {
      expect(await installHold(handle.db, { address: ATTACKER, now: T0 })).toBeNull();
    }
    expect(await installHold(handle.db, { address: ATTACKER, now: T0 })).toEqual({ reason: "too_many_attempts", minutes: 10 });
    expect(await installHold(handle.db, { address: MERCHANT, now: T0 })).toBeNull();
    for (let i = 0; i < TOKEN_ENDPOINT.max; i += 1) expect(await takeTokenBudget(handle.db, T0)).toEqual({ ok: true });
    // Waiting until 08:06, when the minute of those calls has left every 300 s that includes now.
    expect(await installHold(handle.db, { address: MERCHANT, now: at(MINUTE) })).toEqual({ reason: "platform_busy", minutes: 5 });
  });

  it("the app never makes more than 60 token calls in any 300 s, and says when the next one may go", async () => {
    for (let i = 0; i < 20; i += 1) expect((await takeTokenBudget(handle.db, T0)).ok).toBe(true);
    for (let i = 0; i < 40; i += 1) expect((await takeTokenBudget(handle.db, at(2 * MINUTE))).ok).toBe(true);
    expect(await tokenBudgetOpen(handle.db, at(2 * MINUTE))).toEqual({ ok: false, retryAfterMs: 3.5 * MINUTE });
    expect(await takeTokenBudget(handle.db, at(4 * MINUTE))).toEqual({ ok: false, retryAfterMs: 1.5 * MINUTE });
    // 08:05:59.999 still sees the calls of 08:00; 08:06 sees only the 40 of 08:02.
    expect((await takeTokenBudget(handle.db, at(5.5 * MINUTE - 1))).ok).toBe(false);
    expect(await tokenBudgetOpen(handle.db, at(5.5 * MINUTE))).toEqual({ ok: true });
    for (let i = 0; i < 20; i += 1) expect((await takeTokenBudget(handle.db, at(5.5 * MINUTE))).ok).toBe(true);
    expect(await takeTokenBudget(handle.db, at(5.5 * MINUTE))).toEqual({ ok: false, retryAfterMs: 2 * MINUTE });
  });

  it("admits a callback only with a fresh state, an address with callbacks left and the app's budget open", async () => {
    const admit = (state: string, address: string, now = T0) => admitTokenCall(handle.db, { state, startedAt: T0.getTime(), address, now });
    expect(await admit("s-1", ATTACKER)).toEqual({ ok: true });
    expect(await admit("s-1", MERCHANT)).toEqual({ ok: false, reason: "expired" });
    for (let i = 2; i <= 5; i += 1) expect(await admit(`s-${i}`, ATTACKER)).toEqual({ ok: true });
    expect(await admit("s-6", ATTACKER)).toEqual({ ok: false, reason: "too_many_attempts", retryAfterMs: 9.5 * MINUTE });
    for (let i = 0; i < TOKEN_ENDPOINT.max - 5; i += 1) await takeTokenBudget(handle.db, T0);
    expect(await admit("s-7", MERCHANT)).toEqual({ ok: false, reason: "platform_busy", retryAfterMs: 5.5 * MINUTE });
  });

  it("on a rehearsal (app and platform on this machine) a client has no per-address budget, the app's still applies", async () => {
    const headers = new Headers({ "x-app-peer-address": "127.0.0.1" });
    expect(budgetedClient(headers, { trustProxyHops: 0, rehearsal: true })).toBeNull();
    expect(budgetedClient(headers, { trustProxyHops: 0, rehearsal: false })).toBe("127.0.0.1");
    const local = { TRUST_PROXY_HOPS: 0, APP_URL: "http://localhost:3000", SVC_AUTH_URL: "http://localhost:4000", SVC_API_URL: "http://127.0.0.1:4000" };
    expect(budgetConfig(local)).toEqual({ trustProxyHops: 0, rehearsal: true });
    expect(budgetConfig({ ...local, TRUST_PROXY_HOPS: 2, APP_URL: "https://app.example.com" })).toEqual({ trustProxyHops: 2, rehearsal: false });
    for (let i = 0; i < INSTALLS_PER_ADDRESS.max + 1; i += 1) expect(await installHold(handle.db, { address: null, now: T0 })).toBeNull();
    for (let i = 0; i < CALLBACKS_PER_ADDRESS.max + 1; i += 1) {
      expect(await admitTokenCall(handle.db, { state: `r-${i}`, startedAt: T0.getTime(), address: null, now: T0 })).toEqual({ ok: true });
    }
    for (let i = 0; i < TOKEN_ENDPOINT.max - CALLBACKS_PER_ADDRESS.max - 1; i += 1) await takeTokenBudget(handle.db, T0);
    expect(await admitTokenCall(handle.db, { state: "r-last", startedAt: T0.getTime(), address: null, now: T0 })).toMatchObject({
      ok: false,
      reason: "platform_busy",
    });
    expect(await installHold(handle.db, { address: null, now: T0 })).toMatchObject({ reason: "platform_busy" });
  });

  it("forgets a spent state once its attempt has expired, and the budgets' old windows", async () => {
    const admit = (state: string, now: Date) => admitTokenCall(handle.db, { state, startedAt: T0.getTime(), address: MERCHANT, now });
    expect((await admit("old", T0)).ok).toBe(true);
    expect((await admit("other", at(10 * MINUTE))).ok).toBe(true);
    expect((await handle.db.select().from(spentInstallStates)).map((row) => row.stateHash)).toEqual([stateHash("other")]);
    expect((await admit("later", at(40 * MINUTE))).ok).toBe(true);
    const windows = await handle.db.select().from(rateBuckets);
    expect(windows.every((row) => row.windowStart.getTime() >= at(20 * MINUTE).getTime())).toBe(true);
  });
});
