import type { EmuRequest, EmulatorContext } from "../http/types";
import { runtime } from "../runtime";

/** The OAuth endpoints' limits from the spec, counted in emulated time over a sliding window. */
export const OAUTH_LIMITS = {
  authorize: { max: 30, windowSeconds: 300 },
  approve: { max: 10, windowSeconds: 600 },
  token: { max: 60, windowSeconds: 300 },
} as const;

const MAX_RETRY_AFTER = 120;

const enabledFor = new WeakMap<EmulatorContext, boolean>();

/** Tests and long browser runs can turn the OAuth limits off (`--no-oauth-limits`). */
export function setOAuthLimitsEnabled(ctx: EmulatorContext, enabled: boolean): void {
  enabledFor.set(ctx, enabled);
}

/** The platform counts per client: address, browser headers and session together. */
function clientKey(request: EmuRequest): string {
  const address = request.raw.socket.remoteAddress ?? "unknown";
  const agent = request.headers["user-agent"] ?? "";
  const language = request.headers["accept-language"] ?? "";
  const session = request.cookies.emu_merchant ?? "";
  return `${address}|${agent}|${language}|${session}`;
}

/** Records the hit and returns null, or returns the seconds to wait (hit not recorded) when the bucket is full. */
export function checkOAuthLimit(ctx: EmulatorContext, endpoint: keyof typeof OAUTH_LIMITS, request: EmuRequest): number | null {
  if (enabledFor.get(ctx) === false) return null;
  const { max, windowSeconds } = OAUTH_LIMITS[endpoint];
  const now = ctx.clock.nowMs();
  const key = `${endpoint}:${clientKey(request)}`;
  const hits = (runtime(ctx).oauthHits.get(key) ?? []).filter((at) => at > now - windowSeconds * 1000);
  if (hits.length >= max) {
    runtime(ctx).oauthHits.set(key, hits);
    const wait = Math.ceil((hits[0]! + windowSeconds * 1000 - now) / 1000);
    return Math.max(1, Math.min(MAX_RETRY_AFTER, wait));
  }
  hits.push(now);
  runtime(ctx).oauthHits.set(key, hits);
  return null;
}
