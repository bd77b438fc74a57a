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
import { CALLBACKS_PER_ADDRESS, installHold, openShare, recentInstaller, stateHash, TOKEN_ENDPOINT } from "@/lib/oauth/install-budget";
import { startInstallAttempt, type InstallAttempt } from "@/lib/oauth/pkce";
import { authorizeUrl, type OAuthClient } from "@/lib/oauth/token-client";
import { APP_USER_AGENT } from "@/lib/platform";
import { createTestDatabase } from "@/tests/helpers/database";

/**
 * The install flow under a flood, against the in-process emulator with its OAuth limits on (60 token calls per
 * 300 s per client, and every call the app makes comes from the same client): bogus callbacks from one address
 * must not spend the budget a real merchant's consent needs. The budgets themselves, with a chosen clock, are in
 * tests/integration/install-budget.test.ts.
 */

const APP_URL = "http://localhost:3998";
const ring = keyRing(Buffer.alloc(32, 9).toString("base64"));
const ATTACKER = "203.0.113.7";
const MERCHANT = "198.51.100.2";
const MERCHANT_AGAIN = "198.51.100.99";
const OUTSIDER = "192.0.2.1";

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

/** A client whose address the app knows (not a rehearsal). */
const known = (address: string) => ({ rehearsal: false as const, address });

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
  return completeInstall(handle.db, { params, attempt, client, admission: { client: known(address) }, ring, jobs });
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
    const outcome = await completeInstall(handle.db, { params: callback, attempt, client, admission: { client: known(MERCHANT) }, ring, jobs });
    expect(outcome.ok).toBe(true);
    expect(tokenCalls).toBe(before + 1);
    expect((await listAllInstalls(handle.db)).map((row) => row.storeId)).toEqual([101, 103]);
  });

  it("200 bogus callbacks from 200 addresses of one IPv6 /64 make at most 10 token calls; a merchant elsewhere installs right after", async () => {
    const outcomes = [];
    for (let i = 1; i <= 200; i += 1) outcomes.push(await bogusCallback(`2001:db8:bad:1::${i.toString(16)}`));
    expect(tokenCalls).toBeLessThanOrEqual(10);
    expect(tokenCalls).toBe(CALLBACKS_PER_ADDRESS.max);
    expect(outcomes.filter((outcome) => !outcome.ok && outcome.reason === "too_many_attempts")).toHaveLength(195);

    const { attempt, callback } = await consent([101]);
    const outcome = await completeInstall(handle.db, { params: callback, attempt, client, admission: { client: known(MERCHANT) }, ring, jobs });
    expect(outcome.ok).toBe(true);
    expect(tokenCalls).toBe(CALLBACKS_PER_ADDRESS.max + 1);
  });

  it("a flood from 60 networks spends only the open share; a merchant whose network installed lately reaches the reserve", async () => {
    const { attempt: first, callback: firstAnswer } = await consent([101]);
    expect((await completeInstall(handle.db, { params: firstAnswer, attempt: first, client, admission: { client: known(MERCHANT) }, ring, jobs })).ok).toBe(true);
    expect(await recentInstaller(handle.db, { address: MERCHANT, now: new Date() })).toBe(true);
    const outcomes = [];
    for (let i = 1; i <= 60; i += 1) outcomes.push(await bogusCallback(`203.0.${i}.7`));
    // The merchant's own install took one call; the flood the rest of the open share, never the reserve.
    expect(tokenCalls).toBe(openShare(TOKEN_ENDPOINT.max));
    expect(outcomes.filter((outcome) => !outcome.ok && outcome.reason === "platform_busy").length).toBe(60 - (openShare(TOKEN_ENDPOINT.max) - 1));
    expect(await installHold(handle.db, { client: known(OUTSIDER) })).toMatchObject({ reason: "platform_busy" });
    expect(await recentInstaller(handle.db, { address: "203.0.1.7", now: new Date() })).toBe(false);

    // The merchant signs in again from the same network (another address of its /24).
    expect(await installHold(handle.db, { client: known(MERCHANT_AGAIN) })).toBeNull();
    const { attempt, callback } = await consent([101, 103]);
    const outcome = await completeInstall(handle.db, { params: callback, attempt, client, admission: { client: known(MERCHANT_AGAIN) }, ring, jobs });
    expect(outcome.ok).toBe(true);
    expect((await listAllInstalls(handle.db)).map((row) => row.storeId)).toEqual([101, 103]);
  });

  it("a replayed callback never reaches the token endpoint", async () => {
    const { attempt, callback } = await consent([101]);
    expect((await completeInstall(handle.db, { params: callback, attempt, client, admission: { client: known(MERCHANT) }, ring, jobs })).ok).toBe(true);
    const calls = tokenCalls;
    // The same attempt (a copy of the attempt cookie) with the same answer, from anywhere.
    expect(await completeInstall(handle.db, { params: callback, attempt, client, admission: { client: known(ATTACKER) }, ring, jobs })).toEqual({
      ok: false,
      reason: "expired",
    });
    expect(tokenCalls).toBe(calls);
    const stored = await handle.db.select().from(spentInstallStates);
    expect(stored.map((row) => row.stateHash)).toEqual([stateHash(attempt.state)]);
    expect(JSON.stringify(stored)).not.toContain(attempt.state);
  });
});
