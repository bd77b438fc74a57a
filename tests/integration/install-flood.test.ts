import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { listAllInstalls } from "@/db/queries/installs";
import { endedGrants, installs, rateBuckets, sessions, spentInstallStates } from "@/db/schema";
import { startEmulator } from "@/emulator/src/index";
import { runtime } from "@/emulator/src/runtime";
import type { PgBoss } from "pg-boss";
import { keyRing } from "@/lib/crypto/token-cipher";
import { startBoss } from "@/lib/jobs/boss";
import { DEV_APP } from "@/lib/dev-app";
import { setLogSink } from "@/lib/log";
import { completeInstall } from "@/lib/oauth/complete-install";
import { CALLBACKS_PER_ADDRESS, installHold, openShare, RETURNING_CALLBACKS, stateHash, takeTokenBudget, TOKEN_ENDPOINT, type BudgetedClient } from "@/lib/oauth/install-budget";
import { returningProof, sealInstalledBefore } from "@/lib/oauth/returning-merchant";
import { signIn, signOut } from "@/lib/session-lifecycle";
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
  await handle.db.delete(sessions);
  await handle.db.delete(endedGrants);
  await handle.db.delete(installs);
  await handle.db.delete(rateBuckets);
  await handle.db.delete(spentInstallStates);
  // A fresh platform window too: the emulator counts every test's token calls and consents against one client.
  runtime(emulator.ctx).oauthHits.clear();
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

/** A client whose address the app knows (not a rehearsal), with the returning merchant's proof it presents. */
const known = (address: string, returning: string | null = null): BudgetedClient => ({ rehearsal: false, address, returning });
/** The secret lib/session.ts seals the "installed before" cookie with (SESSION_SECRET). */
const SECRET = "integration-test-session-secret-0123456789";

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
async function bogusCallback(address: string, returning: string | null = null) {
  const { attempt } = await startInstallAttempt();
  const params = new URLSearchParams({ state: attempt.state, code: randomBytes(32).toString("hex") });
  return completeInstall(handle.db, { params, attempt, client, admission: { client: known(address, returning) }, ring, jobs });
}

/**
 * Ten networks of ten providers (ten IPv4 /16s), each looping bogus callbacks from a few addresses, until every
 * network is held: the open share is spent.
 */
async function floodFromTenNetworks(): Promise<void> {
  for (let round = 0; round < 3; round += 1) {
    for (let network = 1; network <= 10; network += 1) {
      for (let host = 1; host <= 5; host += 1) await bogusCallback(`${20 + network}.${network}.7.${host}`);
    }
  }
}

/** The merchant signs in: /install's verdict, then the consent and the callback, with what its browser presents. */
async function signInWith(address: string, returning: string | null, storeIds: number[]) {
  const held = await installHold(handle.db, { client: known(address, returning) });
  if (held) return { held, outcome: null };
  const { attempt, callback } = await consent(storeIds);
  return { held, outcome: await completeInstall(handle.db, { params: callback, attempt, client, admission: { client: known(address, returning) }, ring, jobs }) };
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

  it("with 10 networks looping bogus callbacks, a returning merchant with its \"installed before\" cookie installs at once", async () => {
    // The first install, as /oauth/callback answers it: the browser keeps a sealed cookie naming the store.
    const first = await signInWith(MERCHANT, null, [101]);
    expect(first.outcome?.ok).toBe(true);
    const cookie = await sealInstalledBefore([101], [], SECRET);
    // Sealed, not only signed: no part of it, decoded, reads the store id. (The seal's hex and random parts may hold
    // the digits "101" by chance, so the raw text is no test.)
    expect(cookie.startsWith("Fe26.2*")).toBe(true);
    for (const part of cookie.split("*")) expect(Buffer.from(part, "base64url").toString("latin1")).not.toContain("[101");

    const before = tokenCalls;
    await floodFromTenNetworks();
    // The flood spent the open share and not one call more: 150 bogus callbacks, 39 token calls.
    expect(tokenCalls - before).toBe(openShare(TOKEN_ENDPOINT.max) - 1);
    // A new merchant (no proof) is told to wait; so is the returning one's network, which proves nothing.
    expect(await installHold(handle.db, { client: known(OUTSIDER) })).toMatchObject({ reason: "platform_busy", minutes: expect.any(Number) });
    expect(await installHold(handle.db, { client: known(MERCHANT_AGAIN) })).toMatchObject({ reason: "platform_busy" });

    // The returning merchant, from a flooded network even, presents its cookie: admitted ahead of every limit.
    const proof = await returningProof(handle.db, { installedBefore: cookie, sessionId: null, password: SECRET });
    expect(proof).toBe("store:101");
    const again = await signInWith("21.1.7.9", proof, [101, 103]);
    expect(again.held).toBeNull();
    expect(again.outcome?.ok).toBe(true);
    expect((await listAllInstalls(handle.db)).map((row) => row.storeId)).toEqual([101, 103]);
    // A forged or foreign cookie proves nothing.
    expect(await returningProof(handle.db, { installedBefore: cookie, sessionId: null, password: `${SECRET}-other` })).toBeNull();
    expect(await returningProof(handle.db, { installedBefore: `${cookie.slice(0, -2)}xx`, sessionId: null, password: SECRET })).toBeNull();
  });

  it("with 10 networks looping bogus callbacks, a returning merchant with a live or recently ended session installs at once", async () => {
    expect((await signInWith(MERCHANT, null, [101, 103])).outcome?.ok).toBe(true);
    const live = await signIn(handle.db, { previousId: null, storeIds: [101], now: new Date() });
    const ended = await signIn(handle.db, { previousId: null, storeIds: [103, 101], now: new Date() });
    await signOut(handle.db, ended.id);
    await floodFromTenNetworks();
    expect(await installHold(handle.db, { client: known(OUTSIDER) })).toMatchObject({ reason: "platform_busy" });

    const byLive = await returningProof(handle.db, { installedBefore: undefined, sessionId: live.id, password: SECRET });
    expect(byLive).toBe("store:101");
    const first = await signInWith("22.2.7.1", byLive, [101]);
    expect(first).toMatchObject({ held: null, outcome: { ok: true } });
    // Signed out: the endings kept for the session (12 hours) still prove the browser; the same store, the same share.
    const byEnded = await returningProof(handle.db, { installedBefore: undefined, sessionId: ended.id, password: SECRET });
    expect(byEnded).toBe("store:101");
    expect(await signInWith(MERCHANT_AGAIN, byEnded, [101, 103])).toMatchObject({ held: null, outcome: { ok: true } });
    // A session id nobody holds proves nothing.
    expect(await returningProof(handle.db, { installedBefore: undefined, sessionId: "0".repeat(64), password: SECRET })).toBeNull();
  });

  it("a merchant behind an abused shared address (CGNAT) with a session still signs in", async () => {
    const SHARED = "100.64.9.9";
    expect((await signInWith(MERCHANT, null, [101])).outcome?.ok).toBe(true);
    const session = await signIn(handle.db, { previousId: null, storeIds: [101], now: new Date() });
    // The abuser behind the shared address spends its callbacks, its /24's and its /16's, and its install starts.
    for (let i = 0; i < 30; i += 1) await bogusCallback(i % 2 === 0 ? SHARED : `100.64.${i}.1`);
    for (let i = 0; i < 25; i += 1) await installHold(handle.db, { client: known(SHARED) });
    expect(await installHold(handle.db, { client: known(SHARED) })).toMatchObject({ reason: "too_many_attempts" });
    expect(await bogusCallback(SHARED)).toMatchObject({ ok: false, reason: "too_many_attempts" });

    const proof = await returningProof(handle.db, { installedBefore: undefined, sessionId: session.id, password: SECRET });
    const before = tokenCalls;
    expect(await signInWith(SHARED, proof, [101])).toMatchObject({ held: null, outcome: { ok: true } });
    expect(tokenCalls).toBe(before + 1);
  });

  it("one valid \"installed before\" cookie replayed from 10 networks spends no more than its own share of the reserve", async () => {
    expect((await signInWith(MERCHANT, null, [101])).outcome?.ok).toBe(true);
    const stolen = await returningProof(handle.db, { installedBefore: await sealInstalledBefore([101], [], SECRET), sessionId: null, password: SECRET });
    // The open share is spent (39 more calls besides the install's own).
    const now = new Date();
    for (let i = 1; i < openShare(TOKEN_ENDPOINT.max); i += 1) expect(await takeTokenBudget(handle.db, now, openShare(TOKEN_ENDPOINT.max))).toEqual({ ok: true });

    const before = tokenCalls;
    const outcomes = [];
    for (let round = 0; round < 3; round += 1) {
      for (let network = 1; network <= 10; network += 1) outcomes.push(await bogusCallback(`${30 + network}.${network}.1.${round + 1}`, stolen));
    }
    expect(tokenCalls - before).toBe(RETURNING_CALLBACKS.max);
    expect(outcomes.filter((outcome) => !outcome.ok && outcome.reason === "platform_busy")).toHaveLength(30 - RETURNING_CALLBACKS.max);
    const stored = await handle.db.select().from(rateBuckets);
    expect(stored.filter((row) => row.bucket.startsWith("oauth:returning-callback:")).map((row) => [row.bucket, row.used])).toEqual([
      ["oauth:returning-callback:store:101", RETURNING_CALLBACKS.max],
    ]);

    // The rest of the reserve is still there for another returning merchant.
    const other = await returningProof(handle.db, { installedBefore: await sealInstalledBefore([103], [], SECRET), sessionId: null, password: SECRET });
    expect(other).toBe("store:103");
    expect(await signInWith(OUTSIDER, other, [103])).toMatchObject({ held: null, outcome: { ok: true } });
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
