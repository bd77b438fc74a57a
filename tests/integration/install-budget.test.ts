import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { rateBuckets, spentInstallStates } from "@/db/schema";
import { resetEnvCache } from "@/lib/env";
import { PEER_HEADER } from "@/lib/http/client-address";
import {
  admitTokenCall,
  budgetConfig,
  budgetedClient,
  CALLBACKS_PER_ADDRESS,
  installHold,
  INSTALLS_PER_ADDRESS,
  minutesToWait,
  spendInstallState,
  stateHash,
  takeAddressBudget,
  takeTokenBudget,
  TOKEN_ENDPOINT,
  tokenBudgetOpen,
} from "@/lib/oauth/install-budget";
import { createTestDatabase, databaseKind } from "@/tests/helpers/database";

/**
 * The install flow's budgets (lib/oauth/install-budget.ts) against a real database with a chosen clock: each
 * budget's size, the waiting time it reports, and its windows at the exact millisecond they open and close.
 * The flood itself, against the emulator, is tests/integration/install-flood.test.ts.
 */

const ATTACKER = "203.0.113.7";
const MERCHANT = "198.51.100.2";
const OTHER = "192.0.2.44";
const SECOND = 1_000;
const MINUTE = 60_000;
/** A time on the test's day, "hh:mm:ss.mmm" UTC. */
const at = (time: string) => new Date(`2026-05-01T${time}Z`);
const T0 = at("08:00:30.000");

let handle: DatabaseHandle;

beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle?.close();
});
beforeEach(async () => {
  await handle.db.delete(rateBuckets);
  await handle.db.delete(spentInstallStates);
});
afterEach(() => {
  delete process.env.TOKEN_ENDPOINT_LIMIT;
  resetEnvCache();
});

async function takeTokens(count: number, now: Date) {
  for (let i = 0; i < count; i += 1) expect(await takeTokenBudget(handle.db, now), `token call ${i + 1}`).toEqual({ ok: true });
}

async function takeAddress(kind: "callback" | "install", address: string, count: number, now: Date) {
  for (let i = 0; i < count; i += 1) {
    expect(await takeAddressBudget(handle.db, { kind, address, now }), `${kind} ${i + 1}`).toEqual({ ok: true });
  }
}

/** The budget windows stored, as "bucket hh:mm used". */
async function storedWindows(): Promise<string[]> {
  const rows = await handle.db.select().from(rateBuckets);
  return rows.map((row) => `${row.bucket} ${row.windowStart.toISOString().slice(11, 16)} ${row.used}`).sort();
}

describe("the budgets' sizes", () => {
  it("5 callbacks and 20 installs per address per 10 minutes; the platform's 60 token calls per 300 s", () => {
    expect(CALLBACKS_PER_ADDRESS).toEqual({ max: 5, windowMs: 10 * MINUTE });
    expect(INSTALLS_PER_ADDRESS).toEqual({ max: 20, windowMs: 10 * MINUTE });
    expect(TOKEN_ENDPOINT.max).toBe(60);
    expect(TOKEN_ENDPOINT.windowMs).toBe(300 * SECOND);
  });

  it("tells a merchant whole minutes, rounded up, never 0", () => {
    expect(minutesToWait(-5)).toBe(1);
    expect(minutesToWait(0)).toBe(1);
    expect(minutesToWait(1)).toBe(1);
    expect(minutesToWait(MINUTE)).toBe(1);
    expect(minutesToWait(MINUTE + 1)).toBe(2);
    expect(minutesToWait(9.5 * MINUTE)).toBe(10);
    expect(minutesToWait(10 * MINUTE)).toBe(10);
  });
});

describe("the client whose budgets a request spends", () => {
  const local = {
    TRUST_PROXY_HOPS: 0,
    APP_URL: "http://localhost:3000",
    SVC_AUTH_URL: "http://127.0.0.1:4000",
    SVC_API_URL: "http://[::1]:4000",
  };

  it("is nobody on a rehearsal: the app and both platform URLs on loopback", () => {
    expect(budgetConfig(local)).toEqual({ trustProxyHops: 0, rehearsal: true });
    expect(budgetConfig({ ...local, TRUST_PROXY_HOPS: 2 })).toEqual({ trustProxyHops: 2, rehearsal: true });
  });

  it("is budgeted as soon as any of the three is not loopback (a public APP_URL behind a tunnel included)", () => {
    expect(budgetConfig({ ...local, APP_URL: "https://app.example.com" })).toEqual({ trustProxyHops: 0, rehearsal: false });
    expect(budgetConfig({ ...local, SVC_AUTH_URL: "https://auth.platform.example" })).toEqual({ trustProxyHops: 0, rehearsal: false });
    expect(budgetConfig({ ...local, SVC_API_URL: "https://api.platform.example", TRUST_PROXY_HOPS: 1 })).toEqual({
      trustProxyHops: 1,
      rehearsal: false,
    });
  });

  it("is the address TRUST_PROXY_HOPS picks, or null on a rehearsal", () => {
    const headers = new Headers({ [PEER_HEADER]: ATTACKER, "x-forwarded-for": `${OTHER}, ${MERCHANT}` });
    expect(budgetedClient(headers, { trustProxyHops: 0, rehearsal: false })).toBe(ATTACKER);
    expect(budgetedClient(headers, { trustProxyHops: 1, rehearsal: false })).toBe(MERCHANT);
    expect(budgetedClient(headers, { trustProxyHops: 2, rehearsal: false })).toBe(OTHER);
    expect(budgetedClient(headers, { trustProxyHops: 0, rehearsal: true })).toBeNull();
    expect(budgetedClient(headers, { trustProxyHops: 1, rehearsal: true })).toBeNull();
  });
});

describe(`per-address budgets (${databaseKind()})`, () => {
  it("5 callbacks per clock-aligned ten-minute window, refused until the window's last millisecond has passed", async () => {
    await takeAddress("callback", ATTACKER, 5, T0);
    // The window is 08:00–08:10 and 30 s of it have passed.
    expect(await takeAddressBudget(handle.db, { kind: "callback", address: ATTACKER, now: T0 })).toEqual({ ok: false, retryAfterMs: 9.5 * MINUTE });
    expect(await takeAddressBudget(handle.db, { kind: "callback", address: ATTACKER, now: at("08:09:59.999") })).toEqual({ ok: false, retryAfterMs: 1 });
    await takeAddress("callback", ATTACKER, 5, at("08:10:00.000"));
    expect(await takeAddressBudget(handle.db, { kind: "callback", address: ATTACKER, now: at("08:10:00.000") })).toEqual({
      ok: false,
      retryAfterMs: 10 * MINUTE,
    });
  });

  it("20 installs per window, counted apart from callbacks", async () => {
    await takeAddress("callback", ATTACKER, 5, T0);
    await takeAddress("install", ATTACKER, 20, at("08:04:00.000"));
    expect(await takeAddressBudget(handle.db, { kind: "install", address: ATTACKER, now: at("08:04:00.000") })).toEqual({ ok: false, retryAfterMs: 6 * MINUTE });
    expect(await takeAddressBudget(handle.db, { kind: "callback", address: ATTACKER, now: at("08:04:00.000") })).toMatchObject({ ok: false });
  });

  it("each address has its own budgets", async () => {
    await takeAddress("callback", ATTACKER, 5, T0);
    await takeAddress("install", ATTACKER, 20, T0);
    await takeAddress("callback", MERCHANT, 5, T0);
    await takeAddress("install", MERCHANT, 20, T0);
    expect((await takeAddressBudget(handle.db, { kind: "callback", address: MERCHANT, now: T0 })).ok).toBe(false);
    expect((await takeAddressBudget(handle.db, { kind: "install", address: MERCHANT, now: T0 })).ok).toBe(false);
  });

  it("a window's first use forgets the budget windows that began more than two windows (20 min) earlier, and only then", async () => {
    await takeTokens(1, at("07:30:10.000"));
    await takeAddress("callback", ATTACKER, 1, at("07:45:00.000"));
    await takeAddress("install", MERCHANT, 1, at("07:50:00.000"));
    await takeTokens(1, at("07:59:10.000"));
    // Nothing began before 07:25 or 07:30 yet.
    expect(await storedWindows()).toEqual([
      `oauth:callback:${ATTACKER} 07:40 1`,
      `oauth:install:${MERCHANT} 07:50 1`,
      "oauth:token 07:30 1",
      "oauth:token 07:59 1",
    ]);
    // 08:10 opens a window: what began before 07:50 goes, the window that began at 07:50 stays.
    await takeAddress("callback", OTHER, 1, at("08:10:00.000"));
    const kept = [`oauth:callback:${OTHER} 08:10 1`, `oauth:install:${MERCHANT} 07:50 1`, "oauth:token 07:59 1"];
    expect(await storedWindows()).toEqual(kept);
    // A later use of the same window forgets nothing, though 07:50 is now more than 20 minutes old.
    await takeAddress("callback", OTHER, 1, at("08:19:59.999"));
    expect(await storedWindows()).toEqual([`oauth:callback:${OTHER} 08:10 2`, ...kept.slice(1)]);
    await takeAddress("callback", OTHER, 1, at("08:20:00.000"));
    expect(await storedWindows()).toEqual([`oauth:callback:${OTHER} 08:10 2`, `oauth:callback:${OTHER} 08:20 1`]);
  });

  it("forgetting old windows never forgets token calls still inside the sliding 300 s", async () => {
    await takeTokens(60, at("08:12:00.000"));
    await takeAddress("callback", ATTACKER, 1, at("08:15:30.000"));
    expect(await tokenBudgetOpen(handle.db, at("08:15:30.000"))).toEqual({ ok: false, retryAfterMs: 2.5 * MINUTE });
  });
});

describe(`the app's token budget (${databaseKind()})`, () => {
  it("a minute's calls count until five whole minutes after it have passed", async () => {
    await takeTokens(60, T0);
    expect(await tokenBudgetOpen(handle.db, T0)).toEqual({ ok: false, retryAfterMs: 5.5 * MINUTE });
    expect(await takeTokenBudget(handle.db, at("08:00:40.000"))).toEqual({ ok: false, retryAfterMs: 5 * MINUTE + 20 * SECOND });
    // A new minute with the limit already reached in earlier ones takes nothing, not even its first slot.
    expect(await takeTokenBudget(handle.db, at("08:01:00.000"))).toEqual({ ok: false, retryAfterMs: 5 * MINUTE });
    expect(await tokenBudgetOpen(handle.db, at("08:05:59.999"))).toEqual({ ok: false, retryAfterMs: 1 });
    expect(await takeTokenBudget(handle.db, at("08:05:59.999"))).toEqual({ ok: false, retryAfterMs: 1 });
    expect(await tokenBudgetOpen(handle.db, at("08:06:00.000"))).toEqual({ ok: true });
    await takeTokens(60, at("08:06:00.000"));
    // Every minute counted is this one: the wait runs to the end of the sixth minute from now.
    expect(await tokenBudgetOpen(handle.db, at("08:06:00.000"))).toEqual({ ok: false, retryAfterMs: 6 * MINUTE });
    expect(await takeTokenBudget(handle.db, at("08:06:00.000"))).toEqual({ ok: false, retryAfterMs: 6 * MINUTE });
  });

  it("never more than 60 in any 300 s across minutes; the oldest minutes leave the window first", async () => {
    await takeTokens(20, T0);
    // 40 left for 08:02, whichever minute the calls fall in.
    await takeTokens(40, at("08:02:30.000"));
    expect(await takeTokenBudget(handle.db, at("08:02:30.000"))).toEqual({ ok: false, retryAfterMs: 3.5 * MINUTE });
    expect(await tokenBudgetOpen(handle.db, at("08:02:30.000"))).toEqual({ ok: false, retryAfterMs: 3.5 * MINUTE });
    expect(await takeTokenBudget(handle.db, at("08:04:00.000"))).toEqual({ ok: false, retryAfterMs: 2 * MINUTE });
    expect((await takeTokenBudget(handle.db, at("08:05:59.999"))).ok).toBe(false);
    // 08:06 no longer sees the 20 of 08:00, only the 40 of 08:02.
    await takeTokens(20, at("08:06:00.000"));
    expect(await takeTokenBudget(handle.db, at("08:06:10.000"))).toEqual({ ok: false, retryAfterMs: 1 * MINUTE + 50 * SECOND });
    expect(await tokenBudgetOpen(handle.db, at("08:07:59.999"))).toEqual({ ok: false, retryAfterMs: 1 });
    expect(await tokenBudgetOpen(handle.db, at("08:08:00.000"))).toEqual({ ok: true });
    await takeTokens(40, at("08:08:00.000"));
    expect((await takeTokenBudget(handle.db, at("08:08:00.000"))).ok).toBe(false);
  });

  it("counts calls spread over six minutes and none older", async () => {
    await takeTokens(10, at("07:56:59.999"));
    for (const minute of ["07:57", "07:58", "07:59", "08:00", "08:01", "08:02"]) await takeTokens(10, at(`${minute}:00.000`));
    // 08:02 sees 07:57–08:02: 60 calls, so nothing more; 07:56 has left.
    expect(await tokenBudgetOpen(handle.db, at("08:02:00.000"))).toEqual({ ok: false, retryAfterMs: MINUTE });
    expect(await takeTokenBudget(handle.db, at("08:02:00.000"))).toEqual({ ok: false, retryAfterMs: MINUTE });
    expect(await takeTokenBudget(handle.db, at("08:03:00.000"))).toEqual({ ok: true });
  });

  it("follows TOKEN_ENDPOINT_LIMIT, read when used", async () => {
    process.env.TOKEN_ENDPOINT_LIMIT = "3";
    resetEnvCache();
    expect(TOKEN_ENDPOINT.max).toBe(3);
    await takeTokens(3, T0);
    expect(await takeTokenBudget(handle.db, T0)).toEqual({ ok: false, retryAfterMs: 5.5 * MINUTE });
    expect(await tokenBudgetOpen(handle.db, T0)).toEqual({ ok: false, retryAfterMs: 5.5 * MINUTE });
    process.env.TOKEN_ENDPOINT_LIMIT = "4";
    resetEnvCache();
    expect(await tokenBudgetOpen(handle.db, T0)).toEqual({ ok: true });
    await takeTokens(1, T0);
    expect((await takeTokenBudget(handle.db, T0)).ok).toBe(false);
  });
});

describe(`spent states (${databaseKind()})`, () => {
  it("stores a state's SHA-256, never the state", async () => {
    expect(stateHash("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(await spendInstallState(handle.db, { state: "the-state", startedAt: T0.getTime(), now: T0 })).toBe(true);
    const stored = await handle.db.select().from(spentInstallStates);
    expect(stored.map((row) => row.stateHash)).toEqual([stateHash("the-state")]);
    expect(JSON.stringify(stored)).not.toContain("the-state");
  });

  it("refuses a state the second time, until ten minutes after its attempt started or was answered, whichever is later", async () => {
    const spend = (state: string, now: Date, startedAt = T0.getTime() - 4 * MINUTE) => spendInstallState(handle.db, { state, startedAt, now });
    expect(await spend("s", T0)).toBe(true);
    expect(await spend("s", T0)).toBe(false);
    // A fresh state spent at the last millisecond forgets nothing; "s" is still a replay.
    expect(await spend("t", at("08:10:29.999"))).toBe(true);
    expect(await spend("s", at("08:10:29.999"))).toBe(false);
    // From 08:10:30 (10 minutes after the answer, 14 after the start) the next fresh state forgets "s".
    expect(await spend("u", at("08:10:30.000"))).toBe(true);
    expect(await spend("s", at("08:10:30.000"))).toBe(true);
  });

  it("keeps a state whose attempt started later than now (another instance's clock ahead) for ten minutes from that start", async () => {
    await spendInstallState(handle.db, { state: "ahead", startedAt: T0.getTime() + 2 * SECOND, now: T0 });
    expect((await handle.db.select().from(spentInstallStates)).map((row) => row.expiresAt.toISOString())).toEqual([
      at("08:10:32.000").toISOString(),
    ]);
  });
});

describe(`admitting a callback to the token endpoint (${databaseKind()})`, () => {
  const admit = (state: string, address: string | null, now = T0) => admitTokenCall(handle.db, { state, startedAt: T0.getTime(), address, now });

  it("refuses a replay as expired, without spending the replaying address's callbacks", async () => {
    expect(await admit("s-1", ATTACKER)).toEqual({ ok: true });
    expect(await admit("s-1", MERCHANT)).toEqual({ ok: false, reason: "expired" });
    expect(await admit("s-1", ATTACKER, at("08:05:00.000"))).toEqual({ ok: false, reason: "expired" });
    for (let i = 1; i <= 5; i += 1) expect(await admit(`m-${i}`, MERCHANT)).toEqual({ ok: true });
    expect(await admit("m-6", MERCHANT)).toEqual({ ok: false, reason: "too_many_attempts", retryAfterMs: 9.5 * MINUTE });
  });

  it("holds an address past 5 callbacks without spending a token call, and the state it presented stays spent", async () => {
    for (let i = 1; i <= 5; i += 1) expect(await admit(`a-${i}`, ATTACKER)).toEqual({ ok: true });
    for (let i = 6; i <= 10; i += 1) {
      expect(await admit(`a-${i}`, ATTACKER, at("08:09:00.000"))).toEqual({ ok: false, reason: "too_many_attempts", retryAfterMs: MINUTE });
    }
    expect(await admit("a-6", ATTACKER, at("08:10:00.000"))).toEqual({ ok: false, reason: "expired" });
    // 5 token calls spent: 55 remain for everyone else.
    await takeTokens(54, T0);
    expect(await admit("m-1", MERCHANT)).toEqual({ ok: true });
    expect(await admit("m-2", MERCHANT)).toEqual({ ok: false, reason: "platform_busy", retryAfterMs: 5.5 * MINUTE });
  });

  it("on a rehearsal (no address) has no per-address budget, only the app's", async () => {
    for (let i = 1; i <= 10; i += 1) expect(await admit(`r-${i}`, null)).toEqual({ ok: true });
    await takeTokens(50, at("08:03:00.000"));
    expect(await admit("r-11", null, at("08:03:00.000"))).toEqual({ ok: false, reason: "platform_busy", retryAfterMs: 3 * MINUTE });
    expect(await storedWindows()).toEqual(["oauth:token 08:00 10", "oauth:token 08:03 50"]);
  });
});

describe(`holding /install back (${databaseKind()})`, () => {
  it("holds an address past 20 installs, in whole minutes", async () => {
    for (let i = 0; i < 20; i += 1) expect(await installHold(handle.db, { address: ATTACKER, now: T0 })).toBeNull();
    expect(await installHold(handle.db, { address: ATTACKER, now: T0 })).toEqual({ reason: "too_many_attempts", minutes: 10 });
    expect(await installHold(handle.db, { address: ATTACKER, now: at("08:08:59.999") })).toEqual({ reason: "too_many_attempts", minutes: 2 });
    expect(await installHold(handle.db, { address: ATTACKER, now: at("08:09:00.000") })).toEqual({ reason: "too_many_attempts", minutes: 1 });
    expect(await installHold(handle.db, { address: MERCHANT, now: T0 })).toBeNull();
    expect(await installHold(handle.db, { address: ATTACKER, now: at("08:10:00.000") })).toBeNull();
  });

  it("asks the token budget without spending it, and holds everyone while it is spent", async () => {
    for (let i = 0; i < 25; i += 1) expect(await installHold(handle.db, { address: null, now: T0 })).toBeNull();
    await takeTokens(60, T0);
    expect(await installHold(handle.db, { address: MERCHANT, now: T0 })).toEqual({ reason: "platform_busy", minutes: 6 });
    expect(await installHold(handle.db, { address: null, now: at("08:04:59.999") })).toEqual({ reason: "platform_busy", minutes: 2 });
    expect(await installHold(handle.db, { address: null, now: at("08:05:00.000") })).toEqual({ reason: "platform_busy", minutes: 1 });
    expect(await installHold(handle.db, { address: MERCHANT, now: at("08:06:00.000") })).toBeNull();
    // A rehearsal counts no installs per address: only the token calls and MERCHANT's installs were stored.
    expect(await storedWindows()).toEqual([`oauth:install:${MERCHANT} 08:00 2`, "oauth:token 08:00 60"]);
  });
});
