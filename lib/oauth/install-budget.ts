import { createHash } from "node:crypto";
import type { Db } from "@/db/client";
import { databaseClock, deleteOAuthBucketsBefore, OAUTH_BUCKET_PREFIX, reserveSlots, slotUsage, takeSlot, windowUsage } from "@/db/queries/rate-buckets";
import { deleteSpentStatesBefore, spendState } from "@/db/queries/spent-states";
import { env, isLocalPlatform, type Env } from "@/lib/env";
import { PRIVATE_NETWORKS, proxyList } from "@/lib/http/cidr";
import { addressNetworks, forwardedByStranger, stoppedShort, walkForwarded, type AddressSource } from "@/lib/http/client-address";
import { peerProof } from "@/lib/http/peer-stamp";
import { log } from "@/lib/log";
import { INSTALL_ATTEMPT_TTL_SECONDS } from "./pkce";

/**
 * Budgets that keep a flood from jamming the install flow. Every token call the app makes comes from its own
 * server, so the platform's token limit (60 per 300 s per client) is one budget shared by every merchant: left
 * open, anyone could spend it with bogus callbacks and every real consent would meet a 429. So:
 * - each client (an IPv4 address, an IPv6 /64) may send at most CALLBACKS_PER_ADDRESS callbacks that reach the
 *   token endpoint and start INSTALLS_PER_ADDRESS installs per ten-minute window, each network (the IPv4 /24, the
 *   IPv6 /48) CALLBACKS_PER_NETWORK and INSTALLS_PER_NETWORK, and each wider block (the IPv4 /16, the IPv6 /32)
 *   CALLBACKS_PER_BLOCK: rotating addresses within one allocation buys nothing;
 * - the app counts its own token calls and never makes one the platform would refuse. A third of them (20 of 60)
 *   is kept for returning merchants, proven by their browser and not by their network (lib/oauth/returning-merchant.ts:
 *   a live or recently ended session, or the signed "installed before" cookie), who are admitted ahead of the
 *   per-network budgets. Each proof names a store and spends at most RETURNING_CALLBACKS calls per window, however
 *   many networks present it; past that it is an ordinary client. Bogus codes never earn a proof, so a flood from
 *   any number of addresses, or from requests whose address is unknown, can spend the open two thirds only;
 * - a `state` reaches the token endpoint once: spent states are kept (hashed) for their attempt's lifetime.
 * Counts live in rate_buckets, shared by every instance, in windows of the database's clock.
 */

const MINUTE_MS = 60_000;

export type Budget = { max: number; windowMs: number };

/** Callbacks from one client (IPv4 address, IPv6 /64) that may reach the token endpoint. */
export const CALLBACKS_PER_ADDRESS: Budget = { max: 5, windowMs: 10 * MINUTE_MS };
/** Callbacks from one network (IPv4 /24, IPv6 /48) that may reach the token endpoint. */
export const CALLBACKS_PER_NETWORK: Budget = { max: 10, windowMs: 10 * MINUTE_MS };
/** Installs (consent screens) one client may start. */
export const INSTALLS_PER_ADDRESS: Budget = { max: 20, windowMs: 10 * MINUTE_MS };
/** Installs one network may start. */
export const INSTALLS_PER_NETWORK: Budget = { max: 60, windowMs: 10 * MINUTE_MS };
/**
 * Callbacks from one block (IPv4 /16, IPv6 /32): two networks' worth, so keeping the open share spent takes blocks of
 * four providers, not eight networks of one. Starting installs spends no token call: no block budget for them.
 */
export const CALLBACKS_PER_BLOCK: Budget = { max: 20, windowMs: 10 * MINUTE_MS };
/** Callbacks one returning merchant's proof (the store it names) may bring to the token endpoint, from anywhere. */
export const RETURNING_CALLBACKS: Budget = { max: 3, windowMs: 10 * MINUTE_MS };
/** Installs one returning merchant's proof may start ahead of the per-network budgets. */
export const RETURNING_INSTALLS: Budget = { max: 10, windowMs: 10 * MINUTE_MS };
/**
 * The platform's token endpoint limit (platform spec, "Limits": 60 per 300 s), counted over a sliding window there.
 * Read when used: only the browser tests, against an emulator without OAuth limits, set TOKEN_ENDPOINT_LIMIT higher.
 */
export const TOKEN_ENDPOINT: Budget = {
  get max() {
    return env.TOKEN_ENDPOINT_LIMIT;
  },
  windowMs: 300_000,
};

/** The token calls anyone may take: two thirds (40 of 60). The rest is the clean-record reserve. */
export function openShare(max: number): number {
  return Math.floor((max * 2) / 3);
}

/** The app's token calls are counted per minute; a sliding 300 s window touches at most this many minutes. */
const TOKEN_MINUTES = TOKEN_ENDPOINT.windowMs / MINUTE_MS + 1;
const TOKEN_BUCKET = `${OAUTH_BUCKET_PREFIX}token`;

/**
 * Whom a request's budgets are charged to: a rehearsal on this machine (the app and the platform on loopback:
 * `npm run dev`, the browser tests, one client that must be able to consent as often as it likes: no per-address
 * budget, the whole token budget), a known address, or an unknown one (no per-address budget, the open share).
 * `returning` is the key of the returning merchant's proof the browser presented (lib/oauth/returning-merchant.ts),
 * when it did.
 */
export type BudgetedClient = { rehearsal: true; address: null; returning?: null } | { rehearsal: false; address: string | null; returning?: string | null };

export type BudgetConfig = { rehearsal: boolean; source: AddressSource };

/** Each warning once per process: a misconfiguration shows in the log without flooding it. */
const warned = { stranger: false, short: false };

/** The client a request's budgets are charged to. */
export function budgetedClient(headers: Headers, config: BudgetConfig): BudgetedClient {
  if (config.rehearsal) return { rehearsal: true, address: null };
  if (!warned.stranger && forwardedByStranger(headers, config.source)) {
    warned.stranger = true;
    log.warn("client address: X-Forwarded-For arrived from a peer that is not a trusted proxy and was ignored (TRUSTED_PROXIES, TRUST_PROXY_HOPS; docs/deploy.md)");
  }
  const walk = walkForwarded(headers, config.source);
  if (!warned.short && stoppedShort(walk, config.source)) {
    warned.short = true;
    // No address in the line: the count and the settings to fix are what the operator needs.
    log.warn(`client address: an X-Forwarded-For walk stopped after ${walk.read} of TRUST_PROXY_HOPS=${config.source.trustProxyHops} entries (an outer proxy not in TRUSTED_PROXIES, or a shorter header): every client behind it shares its budgets (docs/deploy.md)`);
  }
  return { rehearsal: false, address: walk.address };
}

/** The client with the returning merchant's proof it presented (a rehearsal needs none). */
export function withReturning(client: BudgetedClient, returning: string | null): BudgetedClient {
  return client.rehearsal ? client : { ...client, returning };
}

/** budgetedClient's configuration from the validated environment. */
export function budgetConfig(
  settings: Pick<Env, "TRUST_PROXY_HOPS" | "TRUSTED_PROXIES" | "VERCEL" | "APP_URL" | "SVC_AUTH_URL" | "SVC_API_URL">,
  proof: string | null = peerProof(),
): BudgetConfig {
  const { APP_URL, SVC_AUTH_URL, SVC_API_URL } = settings;
  return {
    rehearsal: isLocalPlatform({ APP_URL, SVC_AUTH_URL, SVC_API_URL }),
    source: {
      trustProxyHops: settings.TRUST_PROXY_HOPS,
      trustedProxies: proxyList(settings.TRUSTED_PROXIES ?? PRIVATE_NETWORKS),
      hostHeader: settings.VERCEL === "1",
      proof,
    },
  };
}

export type BudgetVerdict = { ok: true } | { ok: false; retryAfterMs: number };

/** Whole minutes to tell a merchant, never 0. */
export function minutesToWait(retryAfterMs: number): number {
  return Math.max(1, Math.ceil(retryAfterMs / MINUTE_MS));
}

function windowStartOf(now: Date, windowMs: number): Date {
  return new Date(Math.floor(now.getTime() / windowMs) * windowMs);
}

/**
 * Takes one slot of a client's budget for `kind` and one of its network's, both or neither, or says how long
 * until the full one's window ends.
 */
export async function takeAddressBudget(
  db: Db,
  input: { kind: "callback" | "install"; address: string; now: Date },
): Promise<BudgetVerdict> {
  const callback = input.kind === "callback";
  const [perClient, perNetwork] = callback ? [CALLBACKS_PER_ADDRESS, CALLBACKS_PER_NETWORK] : [INSTALLS_PER_ADDRESS, INSTALLS_PER_NETWORK];
  const windowStart = windowStartOf(input.now, perClient.windowMs);
  const { client, network, wide } = addressNetworks(input.address);
  const slots = [
    { bucket: `${OAUTH_BUCKET_PREFIX}${input.kind}:${client}`, windowStart, limit: perClient.max },
    { bucket: `${OAUTH_BUCKET_PREFIX}${input.kind}:${network}`, windowStart, limit: perNetwork.max },
  ];
  if (callback) slots.push({ bucket: `${OAUTH_BUCKET_PREFIX}callback:${wide}`, windowStart, limit: CALLBACKS_PER_BLOCK.max });
  const taken = await reserveSlots(db, slots);
  if (!taken.ok) return { ok: false, retryAfterMs: windowStart.getTime() + perClient.windowMs - input.now.getTime() };
  // The first use of a window clears the windows nobody can count any more.
  if (taken.opened.length > 0) await deleteOAuthBucketsBefore(db, new Date(input.now.getTime() - 2 * perClient.windowMs));
  return { ok: true };
}

const returningBucket = (kind: "callback" | "install", key: string) => `${OAUTH_BUCKET_PREFIX}returning-${kind}:${key}`;

/**
 * Takes one of a returning merchant's proof's slots for `kind`: true while its share of this window lasts. Keyed by
 * the store the proof names, not by the network: one cookie presented from ten networks has one share.
 */
export async function takeReturningBudget(db: Db, input: { kind: "callback" | "install"; key: string; now: Date }): Promise<boolean> {
  const budget = input.kind === "callback" ? RETURNING_CALLBACKS : RETURNING_INSTALLS;
  const windowStart = windowStartOf(input.now, budget.windowMs);
  const used = await takeSlot(db, { bucket: returningBucket(input.kind, input.key), windowStart, limit: budget.max });
  if (used === 1) await deleteOAuthBucketsBefore(db, new Date(input.now.getTime() - 2 * budget.windowMs));
  return used !== null;
}

/** Whether a proof still has a callback slot this window, without taking it (/install asks before the consent). */
export async function returningCallbacksLeft(db: Db, input: { key: string; now: Date }): Promise<boolean> {
  const used = await slotUsage(db, returningBucket("callback", input.key), windowStartOf(input.now, RETURNING_CALLBACKS.windowMs));
  return used < RETURNING_CALLBACKS.max;
}

/** The share of the token budget a client may reach: all of it on a rehearsal or for a proven returning merchant. */
function tokenCeiling(client: BudgetedClient, proven: boolean): number {
  return client.rehearsal || proven ? TOKEN_ENDPOINT.max : openShare(TOKEN_ENDPOINT.max);
}

/**
 * The app's token calls in the minutes a sliding window ending now can reach, oldest first (the last is this
 * minute's).
 */
async function tokenMinutes(db: Db, now: Date): Promise<{ thisMinute: Date; used: number[] }> {
  const thisMinute = windowStartOf(now, MINUTE_MS);
  const from = new Date(thisMinute.getTime() - (TOKEN_MINUTES - 1) * MINUTE_MS);
  const usage = await windowUsage(db, TOKEN_BUCKET, from, new Date(thisMinute.getTime() + MINUTE_MS));
  const used = Array.from({ length: TOKEN_MINUTES }, (_, i) => usage.get(from.getTime() + i * MINUTE_MS) ?? 0);
  return { thisMinute, used };
}

/**
 * How long until fewer than `ceiling` calls are counted: the minutes counted fall out of the sliding window one
 * by one.
 */
function waitForToken(thisMinute: Date, used: number[], now: Date, ceiling: number): number {
  let total = used.reduce((sum, n) => sum + n, 0);
  let shift = 0;
  for (const minute of used) {
    if (total < ceiling) break;
    total -= minute;
    shift += 1;
  }
  return thisMinute.getTime() + shift * MINUTE_MS - now.getTime();
}

/**
 * Whether a token call now would stay under `ceiling` (the platform's limit unless told), without taking it:
 * /install asks before sending the merchant to a consent screen whose answer could not be exchanged.
 */
export async function tokenBudgetOpen(db: Db, now: Date, ceiling: number = TOKEN_ENDPOINT.max): Promise<BudgetVerdict> {
  const { thisMinute, used } = await tokenMinutes(db, now);
  if (used.reduce((sum, n) => sum + n, 0) < ceiling) return { ok: true };
  return { ok: false, retryAfterMs: waitForToken(thisMinute, used, now, ceiling) };
}

/**
 * Takes one of the app's token calls while fewer than `ceiling` (the platform's limit unless told) are counted.
 * Any 300 s lies within the last TOKEN_MINUTES clock minutes, so while every call finds fewer than the limit in
 * those minutes, no 300 s ever holds more than the limit. The earlier minutes no longer change, and this minute's
 * slot is taken atomically, so instances cannot overshoot together.
 */
export async function takeTokenBudget(db: Db, now: Date, ceiling: number = TOKEN_ENDPOINT.max): Promise<BudgetVerdict> {
  const { thisMinute, used } = await tokenMinutes(db, now);
  const earlier = used.slice(0, -1).reduce((sum, n) => sum + n, 0);
  // A first slot of a minute is inserted whatever the limit: a spent budget must not even try.
  const taken = earlier >= ceiling ? null : await takeSlot(db, { bucket: TOKEN_BUCKET, windowStart: thisMinute, limit: ceiling - earlier });
  if (taken !== null) return { ok: true };
  return { ok: false, retryAfterMs: waitForToken(thisMinute, used, now, ceiling) };
}

/** The stored form of a state: its SHA-256, so the table holds nothing a callback could be forged from. */
export function stateHash(state: string): string {
  return createHash("sha256").update(state).digest("hex");
}

/**
 * Spends a state: true the first time, false for a replay. Kept until the attempt's consent request expires, after
 * which the platform refuses its code anyway (and this browser's cookie no longer holds the attempt).
 */
export async function spendInstallState(db: Db, input: { state: string; startedAt: number; now: Date }): Promise<boolean> {
  const expiresAt = new Date(Math.max(input.startedAt, input.now.getTime()) + INSTALL_ATTEMPT_TTL_SECONDS * 1000);
  const fresh = await spendState(db, { stateHash: stateHash(input.state), expiresAt });
  if (fresh) await deleteSpentStatesBefore(db, input.now);
  return fresh;
}

export type Admission =
  | { ok: true }
  | { ok: false; reason: "expired" }
  | { ok: false; reason: "too_many_attempts" | "platform_busy"; retryAfterMs: number };

/**
 * Whether a callback that passed every check may now spend a token call: its state was never presented before
 * (a replay is refused as expired); a returning merchant's proof with callbacks left this window admits it ahead of
 * the per-address budgets and up to the whole token budget; otherwise its client, network and block must have
 * callbacks left (none are counted for a rehearsal or an unknown address) and the open share must be open. `now` is
 * the database's clock unless given.
 */
export async function admitTokenCall(
  db: Db,
  input: { state: string; startedAt: number; client: BudgetedClient; now?: Date },
): Promise<Admission> {
  const now = input.now ?? (await databaseClock(db));
  if (!(await spendInstallState(db, { ...input, now }))) return { ok: false, reason: "expired" };
  const key = returningKeyOf(input.client);
  const proven = key !== null && (await takeReturningBudget(db, { kind: "callback", key, now }));
  if (!proven && input.client.address !== null) {
    const address = await takeAddressBudget(db, { kind: "callback", address: input.client.address, now });
    if (!address.ok) return { ok: false, reason: "too_many_attempts", retryAfterMs: address.retryAfterMs };
  }
  const app = await takeTokenBudget(db, now, tokenCeiling(input.client, proven));
  if (!app.ok) return { ok: false, reason: "platform_busy", retryAfterMs: app.retryAfterMs };
  return { ok: true };
}

/**
 * Why /install should not send this client to a consent screen now, or null: its address, network or block started
 * too many installs, or the share of the token budget it may reach is spent so the consent could not be exchanged
 * (the waiting page says when to come back, and no call is spent finding out). A returning merchant's proof with
 * installs and callbacks left this window skips the per-address budgets and may reach the whole token budget.
 * `now` is the database's clock unless given.
 */
export async function installHold(
  db: Db,
  input: { client: BudgetedClient; now?: Date },
): Promise<{ reason: "too_many_attempts" | "platform_busy"; minutes: number } | null> {
  const now = input.now ?? (await databaseClock(db));
  const key = returningKeyOf(input.client);
  const proven = key !== null && (await returningCallbacksLeft(db, { key, now })) && (await takeReturningBudget(db, { kind: "install", key, now }));
  if (!proven && input.client.address !== null) {
    const address = await takeAddressBudget(db, { kind: "install", address: input.client.address, now });
    if (!address.ok) return { reason: "too_many_attempts", minutes: minutesToWait(address.retryAfterMs) };
  }
  const app = await tokenBudgetOpen(db, now, tokenCeiling(input.client, proven));
  if (!app.ok) return { reason: "platform_busy", minutes: minutesToWait(app.retryAfterMs) };
  return null;
}

// A rehearsal never carries a proof (its type says so; withReturning gives one only to a client that is not one).
function returningKeyOf(client: BudgetedClient): string | null {
  return client.returning ?? null;
}
