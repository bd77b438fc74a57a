import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { databaseClock } from "@/db/queries/rate-buckets";
import { rateBuckets, spentInstallStates } from "@/db/schema";
import { resetEnvCache } from "@/lib/env";
import { PEER_HEADER } from "@/lib/http/peer-stamp";
import {
  admitTokenCall,
  budgetConfig,
  budgetedClient,
  CALLBACKS_PER_ADDRESS,
  CALLBACKS_PER_BLOCK,
  CALLBACKS_PER_NETWORK,
  installHold,
  INSTALLS_PER_ADDRESS,
  INSTALLS_PER_NETWORK,
  openShare,
  RETURNING_CALLBACKS,
  RETURNING_INSTALLS,
  minutesToWait,
  spendInstallState,
  stateHash,
  takeAddressBudget,
  takeTokenBudget,
  TOKEN_ENDPOINT,
  tokenBudgetOpen,
  withReturning,
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
/** An IPv4 address's /24, as its network bucket names it. */
const net = (address: string) => address.replace(/\.\d+$/, ".0/24");
/** An IPv4 address's /16, as its block bucket names it. */
const blk = (address: string) => address.replace(/\.\d+\.\d+$/, ".0.0/16");
const REHEARSAL = { rehearsal: true, address: null } as const;

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
    TRUSTED_PROXIES: undefined,
    VERCEL: undefined,
  };
  const public_ = { ...local, APP_URL: "https://app.example.com" };

  const proof = "proof";
  const stamped = (peer: string, forwarded: string) => new Headers({ [PEER_HEADER]: `${proof} ${peer}`, "x-forwarded-for": forwarded });

  it("is nobody on a rehearsal: the app and both platform URLs on loopback", () => {
    expect(budgetConfig(local, proof).rehearsal).toBe(true);
    expect(budgetedClient(stamped(ATTACKER, MERCHANT), budgetConfig({ ...local, TRUST_PROXY_HOPS: 2 }, proof))).toEqual({ rehearsal: true, address: null });
  });

  it("is budgeted as soon as any of the three is not loopback (a public APP_URL behind a tunnel included)", () => {
    expect(budgetConfig({ ...local, APP_URL: "https://app.example.com" }, proof).rehearsal).toBe(false);
    expect(budgetConfig({ ...local, SVC_AUTH_URL: "https://auth.platform.example" }, proof).rehearsal).toBe(false);
    expect(budgetConfig({ ...local, SVC_API_URL: "https://api.platform.example" }, proof).rehearsal).toBe(false);
  });

  it("takes the settings' hops, proxies, host and the process's proof", () => {
    const config = budgetConfig({ ...public_, TRUST_PROXY_HOPS: 2, TRUSTED_PROXIES: ["10.0.0.0/8"] }, proof);
    expect(config.source).toMatchObject({ trustProxyHops: 2, hostHeader: false, proof });
    expect(config.source.trustedProxies.check("10.1.1.1", "ipv4")).toBe(true);
    expect(config.source.trustedProxies.check("192.168.1.1", "ipv4")).toBe(false);
    // Unset: loopback and the private ranges.
    expect(budgetConfig(public_, proof).source.trustedProxies.check("192.168.1.1", "ipv4")).toBe(true);
    expect(budgetConfig({ ...public_, VERCEL: "1" }, proof).source.hostHeader).toBe(true);
    expect(budgetConfig({ ...public_, VERCEL: "0" }, proof).source.hostHeader).toBe(false);
    // Outside a server nothing stamps requests.
    expect(budgetConfig(public_).source.proof).toBeNull();
  });

  it("is the address the source names: the peer, past trusted proxies, or nobody", () => {
    const behindProxy = budgetConfig({ ...public_, TRUST_PROXY_HOPS: 1 }, proof);
    expect(budgetedClient(stamped("10.0.0.2", `${OTHER}, ${MERCHANT}`), behindProxy)).toEqual({ rehearsal: false, address: MERCHANT });
    expect(budgetedClient(stamped(ATTACKER, MERCHANT), behindProxy)).toEqual({ rehearsal: false, address: ATTACKER });
    expect(budgetedClient(stamped(ATTACKER, MERCHANT), budgetConfig(public_, proof))).toEqual({ rehearsal: false, address: ATTACKER });
    expect(budgetedClient(new Headers({ "x-forwarded-for": MERCHANT }), budgetConfig(public_, proof))).toEqual({ rehearsal: false, address: null });
  });

  it("warns the operator once when forwarding headers come from a peer that is no trusted proxy", async () => {
    // A fresh copy of the modules: the warning is given once per process, and other tests may have met it.
    vi.resetModules();
    const fresh = await import("@/lib/oauth/install-budget");
    const { captureLogs: capture } = await import("@/tests/helpers/log-capture");
    const config = fresh.budgetConfig({ ...public_, TRUST_PROXY_HOPS: 1 }, proof);
    const { lines } = await capture("warn", async () => {
      expect(fresh.budgetedClient(stamped("10.0.0.2", MERCHANT), config).address).toBe(MERCHANT);
      expect(fresh.budgetedClient(stamped(ATTACKER, MERCHANT), config).address).toBe(ATTACKER);
      expect(fresh.budgetedClient(stamped(ATTACKER, OTHER), config).address).toBe(ATTACKER);
    });
    expect(lines.filter((line) => line.includes("X-Forwarded-For arrived from a peer that is not a trusted proxy"))).toHaveLength(1);
  });
});

describe("the proxies' walk, watched", () => {
  const public_ = {
    TRUST_PROXY_HOPS: 2,
    APP_URL: "https://app.example.com",
    SVC_AUTH_URL: "https://auth.platform.example",
    SVC_API_URL: "https://api.platform.example",
    TRUSTED_PROXIES: ["10.0.0.0/8"],
    VERCEL: undefined,
  };
  const proof = "proof";
  const stamped = (peer: string, forwarded: string) => new Headers({ [PEER_HEADER]: `${proof} ${peer}`, "x-forwarded-for": forwarded });

  it("logs once per process when a walk stops short of TRUST_PROXY_HOPS entries, naming no address", async () => {
    vi.resetModules();
    const fresh = await import("@/lib/oauth/install-budget");
    const { captureLogs: capture } = await import("@/tests/helpers/log-capture");
    const config = fresh.budgetConfig(public_, proof);
    const { lines } = await capture("warn", async () => {
      // Both proxies trusted: the walk reads two entries, nothing to say.
      expect(fresh.budgetedClient(stamped("10.0.0.2", `${MERCHANT}, 10.9.9.9`), config).address).toBe(MERCHANT);
      // A CDN's edge not listed: the walk stops after one entry, and the edge is "the client".
      expect(fresh.budgetedClient(stamped("10.0.0.2", `${MERCHANT}, ${OTHER}`), config).address).toBe(OTHER);
      expect(fresh.budgetedClient(stamped("10.0.0.2", `${ATTACKER}, ${OTHER}`), config).address).toBe(OTHER);
      expect(fresh.budgetedClient(stamped("10.0.0.2", ""), config).address).toBeNull();
    });
    const short = lines.filter((line) => line.includes("X-Forwarded-For walk stopped"));
    expect(short).toHaveLength(1);
    expect(short[0]).toContain("stopped after 1 of TRUST_PROXY_HOPS=2 entries");
    for (const address of [MERCHANT, OTHER, ATTACKER]) expect(short[0]).not.toContain(address);
  });

  it("says nothing of whole walks, direct peers or rehearsals", async () => {
    vi.resetModules();
    const fresh = await import("@/lib/oauth/install-budget");
    const { captureLogs: capture } = await import("@/tests/helpers/log-capture");
    const { lines } = await capture("warn", async () => {
      fresh.budgetedClient(stamped("10.0.0.2", `${MERCHANT}, 10.9.9.9`), fresh.budgetConfig(public_, proof));
      fresh.budgetedClient(stamped("10.0.0.2", MERCHANT), fresh.budgetConfig({ ...public_, TRUST_PROXY_HOPS: 1 }, proof));
      fresh.budgetedClient(stamped("10.0.0.2", OTHER), fresh.budgetConfig({ ...public_, TRUST_PROXY_HOPS: 0 }, proof));
      fresh.budgetedClient(stamped("10.0.0.2", OTHER), fresh.budgetConfig({ ...public_, APP_URL: "http://localhost:3000", SVC_AUTH_URL: "http://localhost:4000", SVC_API_URL: "http://localhost:4000" }, proof));
    });
    expect(lines.filter((line) => line.includes("X-Forwarded-For walk stopped"))).toEqual([]);
  });

  it("an empty TRUSTED_PROXIES trusts no proxy; unset (development only) the private ranges", () => {
    const none = budgetConfig({ ...public_, TRUST_PROXY_HOPS: 1, TRUSTED_PROXIES: [] }, proof);
    expect(none.source.trustedProxies.check("10.0.0.2", "ipv4")).toBe(false);
    expect(budgetedClient(stamped("10.0.0.2", MERCHANT), none)).toEqual({ rehearsal: false, address: "10.0.0.2" });
    const unset = budgetConfig({ ...public_, TRUST_PROXY_HOPS: 1, TRUSTED_PROXIES: undefined }, proof);
    expect(budgetedClient(stamped("10.0.0.2", MERCHANT), unset)).toEqual({ rehearsal: false, address: MERCHANT });
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
    // Nothing began before 07:25 or 07:30 yet. Each address counts under its own name and its /24's.
    expect(await storedWindows()).toEqual([
      `oauth:callback:${blk(ATTACKER)} 07:40 1`,
      `oauth:callback:${net(ATTACKER)} 07:40 1`,
      `oauth:callback:${ATTACKER} 07:40 1`,
      `oauth:install:${net(MERCHANT)} 07:50 1`,
      `oauth:install:${MERCHANT} 07:50 1`,
      "oauth:token 07:30 1",
      "oauth:token 07:59 1",
    ]);
    // 08:10 opens a window: what began before 07:50 goes, the window that began at 07:50 stays.
    await takeAddress("callback", OTHER, 1, at("08:10:00.000"));
    const merchant = [`oauth:install:${net(MERCHANT)} 07:50 1`, `oauth:install:${MERCHANT} 07:50 1`, "oauth:token 07:59 1"];
    expect(await storedWindows()).toEqual([`oauth:callback:${blk(OTHER)} 08:10 1`, `oauth:callback:${net(OTHER)} 08:10 1`, `oauth:callback:${OTHER} 08:10 1`, ...merchant]);
    // A later use of the same window forgets nothing, though 07:50 is now more than 20 minutes old.
    await takeAddress("callback", OTHER, 1, at("08:19:59.999"));
    expect(await storedWindows()).toEqual([`oauth:callback:${blk(OTHER)} 08:10 2`, `oauth:callback:${net(OTHER)} 08:10 2`, `oauth:callback:${OTHER} 08:10 2`, ...merchant]);
    await takeAddress("callback", OTHER, 1, at("08:20:00.000"));
    expect(await storedWindows()).toEqual([
      `oauth:callback:${blk(OTHER)} 08:10 2`,
      `oauth:callback:${blk(OTHER)} 08:20 1`,
      `oauth:callback:${net(OTHER)} 08:10 2`,
      `oauth:callback:${net(OTHER)} 08:20 1`,
      `oauth:callback:${OTHER} 08:10 2`,
      `oauth:callback:${OTHER} 08:20 1`,
    ]);
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
  const admit = (state: string, address: string | null, now = T0) =>
    admitTokenCall(handle.db, { state, startedAt: T0.getTime(), client: address === null ? REHEARSAL : { rehearsal: false, address }, now });

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
    // 5 token calls spent: 35 of the open share remain for everyone else.
    await takeTokens(34, T0);
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
    for (let i = 0; i < 20; i += 1) expect(await installHold(handle.db, { client: { rehearsal: false, address: ATTACKER }, now: T0 })).toBeNull();
    expect(await installHold(handle.db, { client: { rehearsal: false, address: ATTACKER }, now: T0 })).toEqual({ reason: "too_many_attempts", minutes: 10 });
    expect(await installHold(handle.db, { client: { rehearsal: false, address: ATTACKER }, now: at("08:08:59.999") })).toEqual({ reason: "too_many_attempts", minutes: 2 });
    expect(await installHold(handle.db, { client: { rehearsal: false, address: ATTACKER }, now: at("08:09:00.000") })).toEqual({ reason: "too_many_attempts", minutes: 1 });
    expect(await installHold(handle.db, { client: { rehearsal: false, address: MERCHANT }, now: T0 })).toBeNull();
    expect(await installHold(handle.db, { client: { rehearsal: false, address: ATTACKER }, now: at("08:10:00.000") })).toBeNull();
  });

  it("asks the token budget without spending it, and holds everyone while it is spent", async () => {
    for (let i = 0; i < 25; i += 1) expect(await installHold(handle.db, { client: REHEARSAL, now: T0 })).toBeNull();
    await takeTokens(60, T0);
    expect(await installHold(handle.db, { client: { rehearsal: false, address: MERCHANT }, now: T0 })).toEqual({ reason: "platform_busy", minutes: 6 });
    expect(await installHold(handle.db, { client: REHEARSAL, now: at("08:04:59.999") })).toEqual({ reason: "platform_busy", minutes: 2 });
    expect(await installHold(handle.db, { client: REHEARSAL, now: at("08:05:00.000") })).toEqual({ reason: "platform_busy", minutes: 1 });
    expect(await installHold(handle.db, { client: { rehearsal: false, address: MERCHANT }, now: at("08:06:00.000") })).toBeNull();
    // A rehearsal counts no installs per address: only the token calls and MERCHANT's installs were stored.
    expect(await storedWindows()).toEqual([`oauth:install:${net(MERCHANT)} 08:00 2`, `oauth:install:${MERCHANT} 08:00 2`, "oauth:token 08:00 60"]);
  });
});

describe(`budgets by network (${databaseKind()})`, () => {
  const admit = (state: string, address: string, now = T0) =>
    admitTokenCall(handle.db, { state, startedAt: T0.getTime(), client: { rehearsal: false, address }, now });

  it("200 addresses from one IPv6 /64 share one client's 5 callbacks", async () => {
    const verdicts = [];
    for (let i = 1; i <= 200; i += 1) verdicts.push(await admit(`v6-${i}`, `2001:db8:1:2::${i.toString(16)}`));
    expect(verdicts.filter((verdict) => verdict.ok)).toHaveLength(CALLBACKS_PER_ADDRESS.max);
    expect(verdicts.slice(0, 5).every((verdict) => verdict.ok)).toBe(true);
    expect(verdicts[5]).toEqual({ ok: false, reason: "too_many_attempts", retryAfterMs: 9.5 * MINUTE });
    expect(await storedWindows()).toEqual(["oauth:callback:2001:db8:1:2::/64 08:00 5", "oauth:callback:2001:db8:1::/48 08:00 5", "oauth:callback:2001:db8::/32 08:00 5", "oauth:token 08:00 5"]);
  });

  it("one IPv6 /48 gets 10 callbacks whichever of its /64s they come from; another /48 its own", async () => {
    for (let i = 1; i <= CALLBACKS_PER_NETWORK.max; i += 1) expect(await admit(`a-${i}`, `2001:db8:1:${i.toString(16)}::1`)).toEqual({ ok: true });
    expect(await admit("a-11", "2001:db8:1:ff::1")).toEqual({ ok: false, reason: "too_many_attempts", retryAfterMs: 9.5 * MINUTE });
    expect(await admit("b-1", "2001:db8:2:ff::1")).toEqual({ ok: true });
    // The refused one took nothing: its /64 still has all of its callbacks once the /48's window turns.
    for (let i = 1; i <= 5; i += 1) expect(await admit(`c-${i}`, "2001:db8:1:ff::1", at("08:10:00.000")), `c-${i}`).toEqual({ ok: true });
  });

  it("one IPv4 /24 gets 10 callbacks and 60 installs whichever of its addresses they come from", async () => {
    expect(CALLBACKS_PER_NETWORK).toEqual({ max: 10, windowMs: 10 * MINUTE });
    for (let i = 1; i <= 10; i += 1) expect(await admit(`d-${i}`, `203.0.113.${i}`)).toEqual({ ok: true });
    expect(await admit("d-11", "203.0.113.200")).toEqual({ ok: false, reason: "too_many_attempts", retryAfterMs: 9.5 * MINUTE });
    // The /24's 10 last its whole 10 minutes, whichever fresh address of it comes next.
    expect(await admit("d-12", "203.0.113.201", at("08:09:59.999"))).toEqual({ ok: false, reason: "too_many_attempts", retryAfterMs: 1 });
    expect(await admit("d-13", "203.0.113.202", at("08:10:00.000"))).toEqual({ ok: true });
    expect(await admit("e-1", "203.0.114.1")).toEqual({ ok: true });
    expect(INSTALLS_PER_NETWORK).toEqual({ max: 60, windowMs: 10 * MINUTE });
    for (let i = 1; i <= 60; i += 1) {
      expect(await takeAddressBudget(handle.db, { kind: "install", address: `198.51.100.${i}`, now: T0 })).toEqual({ ok: true });
    }
    expect(await takeAddressBudget(handle.db, { kind: "install", address: "198.51.100.61", now: at("08:04:00.000") })).toEqual({
      ok: false,
      retryAfterMs: 6 * MINUTE,
    });
  });

  it("one IPv4 /16 gets 20 callbacks whichever of its /24s they come from; another /16 its own; installs have no block budget", async () => {
    expect(CALLBACKS_PER_BLOCK).toEqual({ max: 20, windowMs: 10 * MINUTE });
    for (let i = 1; i <= CALLBACKS_PER_BLOCK.max; i += 1) expect(await admit(`f-${i}`, `203.0.${i}.1`), `f-${i}`).toEqual({ ok: true });
    expect(await admit("f-21", "203.0.200.1", at("08:01:00.000"))).toEqual({ ok: false, reason: "too_many_attempts", retryAfterMs: 9 * MINUTE });
    expect(await admit("g-1", "203.1.200.1")).toEqual({ ok: true });
    for (let i = 1; i <= 30; i += 1) {
      expect(await takeAddressBudget(handle.db, { kind: "install", address: `198.51.${i}.1`, now: T0 }), `install ${i}`).toEqual({ ok: true });
    }
    expect((await storedWindows()).filter((row) => row.startsWith("oauth:install:198.51.0.0/16"))).toEqual([]);
  });

  it("one IPv6 /32 gets 20 callbacks whichever of its /48s they come from; the refused one takes nothing", async () => {
    for (let i = 1; i <= CALLBACKS_PER_BLOCK.max; i += 1) expect(await admit(`h-${i}`, `2001:db8:${i.toString(16)}::1`), `h-${i}`).toEqual({ ok: true });
    expect(await admit("h-21", "2001:db8:ff::1")).toEqual({ ok: false, reason: "too_many_attempts", retryAfterMs: 9.5 * MINUTE });
    expect(await admit("k-1", "2001:db9:ff::1")).toEqual({ ok: true });
    expect((await storedWindows()).filter((row) => row.includes("2001:db8:ff:"))).toEqual([]);
  });

  it("an address written with a port or in another spelling is the same client", async () => {
    for (let i = 1; i <= 5; i += 1) expect(await admit(`p-${i}`, "2001:db8:5:6::1")).toEqual({ ok: true });
    expect(await admit("p-6", "2001:0db8:0005:0006:ffff::9")).toMatchObject({ ok: false, reason: "too_many_attempts" });
  });
});

describe(`the token budget's reserve, for returning merchants' proofs (${databaseKind()})`, () => {
  const client = (address: string | null, returning: string | null = null) => ({ rehearsal: false as const, address, returning });
  const admit = (state: string, address: string | null, returning: string | null = null, now = T0) =>
    admitTokenCall(handle.db, { state, startedAt: T0.getTime(), client: client(address, returning), now });

  it("keeps a third of the calls for returning merchants; strangers and unknown addresses stop at the open share", async () => {
    expect(openShare(60)).toBe(40);
    expect(openShare(3)).toBe(2);
    await takeTokens(39, T0);
    expect(await admit("s-1", ATTACKER)).toEqual({ ok: true });
    // 40 counted: a stranger, and a request whose address is unknown, wait for the open share.
    expect(await admit("s-2", OTHER)).toEqual({ ok: false, reason: "platform_busy", retryAfterMs: 5.5 * MINUTE });
    expect(await admit("s-3", null)).toEqual({ ok: false, reason: "platform_busy", retryAfterMs: 5.5 * MINUTE });
    expect(await installHold(handle.db, { client: client(OTHER), now: T0 })).toEqual({ reason: "platform_busy", minutes: 6 });
    expect(await installHold(handle.db, { client: client(null), now: T0 })).toEqual({ reason: "platform_busy", minutes: 6 });
    // A merchant's network that installed before earns nothing: the proof is the browser's.
    expect(await installHold(handle.db, { client: client(MERCHANT), now: T0 })).toEqual({ reason: "platform_busy", minutes: 6 });
    // Returning merchants reach the reserve, to the platform's limit, each proof up to its own share.
    expect(await installHold(handle.db, { client: client(MERCHANT, "store:1"), now: T0 })).toBeNull();
    for (let store = 1; store <= 7; store += 1) {
      for (let i = 1; i <= RETURNING_CALLBACKS.max && store * 3 + i - 3 <= 20; i += 1) {
        expect(await admit(`m-${store}-${i}`, null, `store:${store}`), `store ${store} call ${i}`).toEqual({ ok: true });
      }
    }
    // 60 counted: the platform's limit holds even for a proof with slots left.
    expect(await admit("m-7-3", MERCHANT, "store:7")).toEqual({ ok: false, reason: "platform_busy", retryAfterMs: 5.5 * MINUTE });
    expect(await installHold(handle.db, { client: client(MERCHANT, "store:8"), now: T0 })).toEqual({ reason: "platform_busy", minutes: 6 });
  });

  it("a proof spends at most 3 calls per ten-minute window, from any address; then it is an ordinary client", async () => {
    expect(RETURNING_CALLBACKS).toEqual({ max: 3, windowMs: 10 * MINUTE });
    await takeTokens(40, T0);
    const addresses = Array.from({ length: 10 }, (_, i) => `198.${51 + i}.100.${i + 1}`);
    const verdicts = [];
    for (const [i, address] of addresses.entries()) verdicts.push(await admit(`r-${i}`, address, "store:5"));
    expect(verdicts.slice(0, 3)).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
    // Past its share the proof is an ordinary client: the open share is spent, so it waits.
    for (const verdict of verdicts.slice(3)) expect(verdict).toEqual({ ok: false, reason: "platform_busy", retryAfterMs: 5.5 * MINUTE });
    expect((await storedWindows()).filter((row) => row.startsWith("oauth:returning-"))).toEqual(["oauth:returning-callback:store:5 08:00 3"]);
    // Another store's proof has its own share; the same store's proof again in the next window.
    expect(await admit("other", OTHER, "store:6")).toEqual({ ok: true });
    expect(await admit("late", OTHER, "store:5", at("08:05:59.999"))).toEqual({ ok: false, reason: "platform_busy", retryAfterMs: 1 });
    await takeTokens(40, at("08:10:00.000"));
    expect(await admit("stranger", MERCHANT, null, at("08:10:00.000"))).toMatchObject({ ok: false, reason: "platform_busy" });
    expect(await admit("next", OTHER, "store:5", at("08:10:00.000"))).toEqual({ ok: true });
  });

  it("admits a proof ahead of its address's, network's and block's spent budgets, and only while its share lasts", async () => {
    for (let i = 1; i <= CALLBACKS_PER_ADDRESS.max; i += 1) expect(await admit(`a-${i}`, MERCHANT)).toEqual({ ok: true });
    expect(await admit("a-6", MERCHANT)).toMatchObject({ ok: false, reason: "too_many_attempts" });
    for (let i = 1; i <= RETURNING_CALLBACKS.max; i += 1) expect(await admit(`p-${i}`, MERCHANT, "store:9"), `p-${i}`).toEqual({ ok: true });
    // The proof took none of the address's callbacks, and once spent the address's limit applies again.
    expect(await admit("p-4", MERCHANT, "store:9")).toEqual({ ok: false, reason: "too_many_attempts", retryAfterMs: 9.5 * MINUTE });
    expect((await storedWindows()).filter((row) => row.startsWith(`oauth:callback:${MERCHANT}`))).toEqual([`oauth:callback:${MERCHANT} 08:00 5`]);
  });

  it("/install: a proof skips the per-address installs while it has installs and callbacks left", async () => {
    expect(RETURNING_INSTALLS).toEqual({ max: 10, windowMs: 10 * MINUTE });
    for (let i = 0; i < INSTALLS_PER_ADDRESS.max; i += 1) await installHold(handle.db, { client: client(MERCHANT), now: T0 });
    expect(await installHold(handle.db, { client: client(MERCHANT), now: T0 })).toMatchObject({ reason: "too_many_attempts" });
    for (let i = 0; i < RETURNING_INSTALLS.max; i += 1) expect(await installHold(handle.db, { client: client(MERCHANT, "store:2"), now: T0 }), `install ${i}`).toBeNull();
    expect(await installHold(handle.db, { client: client(MERCHANT, "store:2"), now: T0 })).toEqual({ reason: "too_many_attempts", minutes: 10 });
    // Its callbacks spent, a proof no longer skips anything at /install either.
    for (let i = 1; i <= RETURNING_CALLBACKS.max; i += 1) expect(await admit(`c-${i}`, OTHER, "store:3")).toEqual({ ok: true });
    expect(await installHold(handle.db, { client: client(MERCHANT, "store:3"), now: T0 })).toEqual({ reason: "too_many_attempts", minutes: 10 });
    expect((await storedWindows()).filter((row) => row.startsWith("oauth:returning-install:store:3"))).toEqual([]);
    expect(await installHold(handle.db, { client: client(OTHER, "store:3"), now: T0 })).toBeNull();
    // An unknown address with a proof: the proof, then the open share.
    expect(await installHold(handle.db, { client: client(null, "store:4"), now: T0 })).toBeNull();
  });

  it("a proof's windows are forgotten with the other install budgets' after two windows", async () => {
    expect(await admit("old", null, "store:1", at("07:30:00.000"))).toEqual({ ok: true });
    expect(await installHold(handle.db, { client: client(null, "store:1"), now: at("07:30:00.000") })).toBeNull();
    expect(await admit("recent", null, "store:2", at("07:40:00.000"))).toEqual({ ok: true });
    expect(await admit("now", null, "store:3", at("08:00:00.000"))).toEqual({ ok: true });
    expect((await storedWindows()).filter((row) => row.startsWith("oauth:returning-"))).toEqual([
      "oauth:returning-callback:store:2 07:40 1",
      "oauth:returning-callback:store:3 08:00 1",
    ]);
    // A later use of the same window forgets nothing, though 07:40 is now more than 20 minutes old.
    expect(await admit("again", null, "store:3", at("08:09:00.000"))).toEqual({ ok: true });
    expect((await storedWindows()).filter((row) => row.startsWith("oauth:returning-"))).toEqual([
      "oauth:returning-callback:store:2 07:40 1",
      "oauth:returning-callback:store:3 08:00 2",
    ]);
  });

  it("a rehearsal reaches the whole budget, and a proof on a rehearsal changes nothing", async () => {
    await takeTokens(59, T0);
    expect(await admitTokenCall(handle.db, { state: "r", startedAt: T0.getTime(), client: REHEARSAL, now: T0 })).toEqual({ ok: true });
    expect(await installHold(handle.db, { client: REHEARSAL, now: T0 })).toEqual({ reason: "platform_busy", minutes: 6 });
    expect(withReturning(REHEARSAL, "store:1")).toEqual(REHEARSAL);
    expect(withReturning({ rehearsal: false, address: MERCHANT }, "store:1")).toEqual({ rehearsal: false, address: MERCHANT, returning: "store:1" });
    expect((await storedWindows()).filter((row) => row.startsWith("oauth:returning-"))).toEqual([]);
  });
});

describe(`the budgets' clock (${databaseKind()})`, () => {
  it("is the database's when none is given, whatever this instance's clock says", async () => {
    const before = await databaseClock(handle.db);
    expect(Math.abs(before.getTime() - Date.now())).toBeLessThan(60_000);
    expect(await admitTokenCall(handle.db, { state: "db-clock", startedAt: before.getTime(), client: { rehearsal: false, address: ATTACKER } })).toEqual({ ok: true });
    expect(await installHold(handle.db, { client: { rehearsal: false, address: ATTACKER } })).toBeNull();
    const after = await databaseClock(handle.db);
    const minutes = new Set([before, after].map((time) => time.toISOString().slice(11, 16)));
    const rows = (await storedWindows()).filter((row) => row.startsWith("oauth:token"));
    expect(rows).toHaveLength(1);
    expect([...minutes].some((minute) => rows[0] === `oauth:token ${minute} 1`)).toBe(true);
  });
});
