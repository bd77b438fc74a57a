import { createHash } from "node:crypto";
import type { Db } from "@/db/client";
import { deleteOAuthBucketsBefore, OAUTH_BUCKET_PREFIX, takeSlot, windowUsage } from "@/db/queries/rate-buckets";
import { deleteSpentStatesBefore, spendState } from "@/db/queries/spent-states";
import { env, isLocalPlatform, type Env } from "@/lib/env";
import { clientAddress } from "@/lib/http/client-address";
import { INSTALL_ATTEMPT_TTL_SECONDS } from "./pkce";

/**
 * Budgets that keep a flood from jamming the install flow. Every token call the app makes comes from its own
 * server, so the platform's token limit (60 per 300 s per client) is one budget shared by every merchant: left
 * open, anyone could spend it with bogus callbacks and every real consent would meet a 429. So:
 * - each client address may send at most CALLBACKS_PER_ADDRESS callbacks that reach the token endpoint, and start
 *   at most INSTALLS_PER_ADDRESS installs, per ten-minute window;
 * - the app counts its own token calls and never makes one the platform would refuse: the merchant is told when
 *   to come back instead;
 * - a `state` reaches the token endpoint once: spent states are kept (hashed) for their attempt's lifetime.
 * Counts live in rate_buckets, shared by every instance of the app.
 */

const MINUTE_MS = 60_000;

export type Budget = { max: number; windowMs: number };

/** Callbacks from one client address that may reach the token endpoint. */
export const CALLBACKS_PER_ADDRESS: Budget = { max: 5, windowMs: 10 * MINUTE_MS };
/** Installs (consent screens) one client address may start. */
export const INSTALLS_PER_ADDRESS: Budget = { max: 20, windowMs: 10 * MINUTE_MS };
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

/** The app's token calls are counted per minute; a sliding 300 s window touches at most this many minutes. */
const TOKEN_MINUTES = TOKEN_ENDPOINT.windowMs / MINUTE_MS + 1;
const TOKEN_BUCKET = `${OAUTH_BUCKET_PREFIX}token`;

/**
 * The client address whose budgets a request spends, or null for a rehearsal on this machine (the app and the
 * platform on loopback: `npm run dev`, the browser tests): there is one client there, the developer or the test
 * runner, and it must be able to consent as often as it likes. The app's token budget still applies.
 */
export function budgetedClient(headers: Headers, config: { trustProxyHops: number; rehearsal: boolean }): string | null {
  return config.rehearsal ? null : clientAddress(headers, config.trustProxyHops);
}

/** budgetedClient's configuration from the validated environment. */
export function budgetConfig(
  settings: Pick<Env, "TRUST_PROXY_HOPS" | "APP_URL" | "SVC_AUTH_URL" | "SVC_API_URL">,
): { trustProxyHops: number; rehearsal: boolean } {
  const { APP_URL, SVC_AUTH_URL, SVC_API_URL } = settings;
  return { trustProxyHops: settings.TRUST_PROXY_HOPS, rehearsal: isLocalPlatform({ APP_URL, SVC_AUTH_URL, SVC_API_URL }) };
}

export type BudgetVerdict = { ok: true } | { ok: false; retryAfterMs: number };

/** Whole minutes to tell a merchant, never 0. */
export function minutesToWait(retryAfterMs: number): number {
  return Math.max(1, Math.ceil(retryAfterMs / MINUTE_MS));
}

function windowStartOf(now: Date, windowMs: number): Date {
  return new Date(Math.floor(now.getTime() / windowMs) * windowMs);
}

/** Takes one slot of a client address's budget for `kind`, or says how long until its window ends. */
export async function takeAddressBudget(
  db: Db,
  input: { kind: "callback" | "install"; address: string; now: Date },
): Promise<BudgetVerdict> {
  const budget = input.kind === "callback" ? CALLBACKS_PER_ADDRESS : INSTALLS_PER_ADDRESS;
  const windowStart = windowStartOf(input.now, budget.windowMs);
  const used = await takeSlot(db, {
    bucket: `${OAUTH_BUCKET_PREFIX}${input.kind}:${input.address}`,
    windowStart,
    limit: budget.max,
  });
  if (used === null) return { ok: false, retryAfterMs: windowStart.getTime() + budget.windowMs - input.now.getTime() };
  // The first use of a window clears the windows nobody can count any more.
  if (used === 1) await deleteOAuthBucketsBefore(db, new Date(input.now.getTime() - 2 * budget.windowMs));
  return { ok: true };
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
 * How long until the app may make a token call: the minutes counted fall out of the sliding window one by one
 * until fewer than the platform's limit remain.
 */
function waitForToken(thisMinute: Date, used: number[], now: Date): number {
  let total = used.reduce((sum, n) => sum + n, 0);
  let shift = 0;
  while (total >= TOKEN_ENDPOINT.max && shift < used.length) {
    total -= used[shift] ?? 0;
    shift += 1;
  }
  return thisMinute.getTime() + shift * MINUTE_MS - now.getTime();
}

/**
 * Whether a token call now would stay within the platform's limit, without taking it: /install asks before sending
 * the merchant to a consent screen whose answer could not be exchanged.
 */
export async function tokenBudgetOpen(db: Db, now: Date): Promise<BudgetVerdict> {
  const { thisMinute, used } = await tokenMinutes(db, now);
  if (used.reduce((sum, n) => sum + n, 0) < TOKEN_ENDPOINT.max) return { ok: true };
  return { ok: false, retryAfterMs: waitForToken(thisMinute, used, now) };
}

/**
 * Takes one of the app's token calls. Any 300 s lies within the last TOKEN_MINUTES clock minutes, so while every
 * call finds fewer than the limit in those minutes, no 300 s ever holds more than the limit. The earlier minutes
 * no longer change, and this minute's slot is taken atomically, so instances cannot overshoot together.
 */
export async function takeTokenBudget(db: Db, now: Date): Promise<BudgetVerdict> {
  const { thisMinute, used } = await tokenMinutes(db, now);
  const earlier = used.slice(0, -1).reduce((sum, n) => sum + n, 0);
  // A first slot of a minute is inserted whatever the limit: a spent budget must not even try.
  const taken = earlier >= TOKEN_ENDPOINT.max ? null : await takeSlot(db, { bucket: TOKEN_BUCKET, windowStart: thisMinute, limit: TOKEN_ENDPOINT.max - earlier });
  if (taken !== null) return { ok: true };
  return { ok: false, retryAfterMs: waitForToken(thisMinute, used, now) };
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
 * (a replay is refused as expired), its client address has callbacks left (null: a rehearsal, no per-address
 * budget), and so does the app's token budget.
 */
export async function admitTokenCall(
  db: Db,
  input: { state: string; startedAt: number; address: string | null; now: Date },
): Promise<Admission> {
  if (!(await spendInstallState(db, input))) return { ok: false, reason: "expired" };
  if (input.address !== null) {
    const address = await takeAddressBudget(db, { kind: "callback", address: input.address, now: input.now });
    if (!address.ok) return { ok: false, reason: "too_many_attempts", retryAfterMs: address.retryAfterMs };
  }
  const app = await takeTokenBudget(db, input.now);
  if (!app.ok) return { ok: false, reason: "platform_busy", retryAfterMs: app.retryAfterMs };
  return { ok: true };
}

/**
 * Why /install should not send this client to a consent screen now, or null: its address started too many
 * installs, or the app's token budget is spent so the consent could not be exchanged (the waiting page says when
 * to come back, and no call is spent finding out).
 */
export async function installHold(
  db: Db,
  input: { address: string | null; now: Date },
): Promise<{ reason: "too_many_attempts" | "platform_busy"; minutes: number } | null> {
  if (input.address !== null) {
    const address = await takeAddressBudget(db, { kind: "install", address: input.address, now: input.now });
    if (!address.ok) return { reason: "too_many_attempts", minutes: minutesToWait(address.retryAfterMs) };
  }
  const app = await tokenBudgetOpen(db, input.now);
  if (!app.ok) return { reason: "platform_busy", minutes: minutesToWait(app.retryAfterMs) };
  return null;
}
