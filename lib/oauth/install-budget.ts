import { createHash } from "node:crypto";
import type { Db } from "@/db/client";
import { databaseClock, deleteInstallerBucketsBefore, deleteOAuthBucketsBefore, INSTALLER_BUCKET_PREFIX, OAUTH_BUCKET_PREFIX, reserveSlots, takeSlot, windowUsage } from "@/db/queries/rate-buckets";
import { deleteSpentStatesBefore, spendState } from "@/db/queries/spent-states";
import { env, isLocalPlatform, type Env } from "@/lib/env";
import { PRIVATE_NETWORKS, proxyList } from "@/lib/http/cidr";
import { addressNetworks, clientAddress, forwardedByStranger, type AddressSource } from "@/lib/http/client-address";
import { peerProof } from "@/lib/http/peer-stamp";
import { log } from "@/lib/log";
import { INSTALL_ATTEMPT_TTL_SECONDS } from "./pkce";

/**
 * Budgets that keep a flood from jamming the install flow. Every token call the app makes comes from its own
 * server, so the platform's token limit (60 per 300 s per client) is one budget shared by every merchant: left
 * open, anyone could spend it with bogus callbacks and every real consent would meet a 429. So:
 * - each client (an IPv4 address, an IPv6 /64) may send at most CALLBACKS_PER_ADDRESS callbacks that reach the
 *   token endpoint and start INSTALLS_PER_ADDRESS installs per ten-minute window, and each network (the IPv4 /24,
 *   the IPv6 /48) CALLBACKS_PER_NETWORK and INSTALLS_PER_NETWORK: rotating addresses within one allocation buys
 *   nothing;
 * - the app counts its own token calls and never makes one the platform would refuse. A third of them (20 of 60)
 *   is kept for callbacks from networks where an install succeeded in the last day (a merchant signing in again,
 *   a colleague installing another store): bogus codes never earn it, so a flood from any number of addresses, or
 *   from requests whose address is unknown, can spend the open two thirds only;
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
/** A network whose callback installed is remembered for this day-window and the next (24 to 48 hours). */
export const INSTALLER_MEMORY: Budget = { max: 2 ** 31 - 1, windowMs: 24 * 60 * MINUTE_MS };
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
 */
export type BudgetedClient = { rehearsal: true; address: null } | { rehearsal: false; address: string | null };

export type BudgetConfig = { rehearsal: boolean; source: AddressSource };

const warned = { stranger: false };

/** The client a request's budgets are charged to. */
export function budgetedClient(headers: Headers, config: BudgetConfig): BudgetedClient {
  if (config.rehearsal) return { rehearsal: true, address: null };
  if (!warned.stranger && forwardedByStranger(headers, config.source)) {
    warned.stranger = true;
    // Stryker disable next-line StringLiteral,ObjectLiteral: log text only; the address it falls back to is tested
    log.warn("client address: X-Forwarded-For arrived from a peer that is not a trusted proxy and was ignored (TRUSTED_PROXIES, TRUST_PROXY_HOPS; docs/deploy.md)");
  }
  return { rehearsal: false, address: clientAddress(headers, config.source) };
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
  const [perClient, perNetwork] = input.kind === "callback" ? [CALLBACKS_PER_ADDRESS, CALLBACKS_PER_NETWORK] : [INSTALLS_PER_ADDRESS, INSTALLS_PER_NETWORK];
  const windowStart = windowStartOf(input.now, perClient.windowMs);
  const { client, network } = addressNetworks(input.address);
  const taken = await reserveSlots(db, [
    { bucket: `${OAUTH_BUCKET_PREFIX}${input.kind}:${client}`, windowStart, limit: perClient.max },
    { bucket: `${OAUTH_BUCKET_PREFIX}${input.kind}:${network}`, windowStart, limit: perNetwork.max },
  ]);
  if (!taken.ok) return { ok: false, retryAfterMs: windowStart.getTime() + perClient.windowMs - input.now.getTime() };
  // The first use of a window clears the windows nobody can count any more.
  if (taken.opened.length > 0) await deleteOAuthBucketsBefore(db, new Date(input.now.getTime() - 2 * perClient.windowMs));
  return { ok: true };
}

const installerBucket = (address: string) => `${INSTALLER_BUCKET_PREFIX}${addressNetworks(address).network}`;

/** Remembers that a callback from this address's network installed: the network may reach the reserve for a day. */
export async function recordInstaller(db: Db, input: { address: string; now?: Date }): Promise<void> {
  const now = input.now ?? (await databaseClock(db));
  const windowStart = windowStartOf(now, INSTALLER_MEMORY.windowMs);
  const used = await takeSlot(db, { bucket: installerBucket(input.address), windowStart, limit: INSTALLER_MEMORY.max });
  if (used === 1) await deleteInstallerBucketsBefore(db, new Date(windowStart.getTime() - INSTALLER_MEMORY.windowMs));
}

/** A callback from the address's network installed in this day-window or the one before. */
export async function recentInstaller(db: Db, input: { address: string; now: Date }): Promise<boolean> {
  const thisWindow = windowStartOf(input.now, INSTALLER_MEMORY.windowMs).getTime();
  const usage = await windowUsage(db, installerBucket(input.address), new Date(thisWindow - INSTALLER_MEMORY.windowMs), new Date(thisWindow + INSTALLER_MEMORY.windowMs));
  return usage.size > 0;
}

/** The share of the token budget a client may reach: all of it on a rehearsal or from a recent installer's network. */
async function tokenCeiling(db: Db, client: BudgetedClient, now: Date): Promise<number> {
  if (client.rehearsal) return TOKEN_ENDPOINT.max;
  if (client.address !== null && (await recentInstaller(db, { address: client.address, now }))) return TOKEN_ENDPOINT.max;
  return openShare(TOKEN_ENDPOINT.max);
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
  while (total >= ceiling && shift < used.length) {
    total -= used[shift] ?? 0;
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
 * (a replay is refused as expired), its client and network have callbacks left (none are counted for a rehearsal
 * or an unknown address), and the share of the app's token budget it may reach is open. `now` is the
 * database's clock unless given.
 */
export async function admitTokenCall(
  db: Db,
  input: { state: string; startedAt: number; client: BudgetedClient; now?: Date },
): Promise<Admission> {
  const now = input.now ?? (await databaseClock(db));
  if (!(await spendInstallState(db, { ...input, now }))) return { ok: false, reason: "expired" };
  if (input.client.address !== null) {
    const address = await takeAddressBudget(db, { kind: "callback", address: input.client.address, now });
    if (!address.ok) return { ok: false, reason: "too_many_attempts", retryAfterMs: address.retryAfterMs };
  }
  const app = await takeTokenBudget(db, now, await tokenCeiling(db, input.client, now));
  if (!app.ok) return { ok: false, reason: "platform_busy", retryAfterMs: app.retryAfterMs };
  return { ok: true };
}

/**
 * Why /install should not send this client to a consent screen now, or null: its address or network started too
 * many installs, or the share of the token budget it may reach is spent so the consent could not be exchanged (the
 * waiting page says when to come back, and no call is spent finding out). `now` is the database's clock unless
 * given.
 */
export async function installHold(
  db: Db,
  input: { client: BudgetedClient; now?: Date },
): Promise<{ reason: "too_many_attempts" | "platform_busy"; minutes: number } | null> {
  const now = input.now ?? (await databaseClock(db));
  if (input.client.address !== null) {
    const address = await takeAddressBudget(db, { kind: "install", address: input.client.address, now });
    if (!address.ok) return { reason: "too_many_attempts", minutes: minutesToWait(address.retryAfterMs) };
  }
  const app = await tokenBudgetOpen(db, now, await tokenCeiling(db, input.client, now));
  if (!app.ok) return { reason: "platform_busy", minutes: minutesToWait(app.retryAfterMs) };
  return null;
}
