import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  ABSOLUTE_LIFETIME_MS,
  IDLE_TIMEOUT_MS,
  isSessionSecret,
  newSessionSecret,
  SESSION_COOKIE_TTL_SECONDS,
  sessionIdOf,
  sessionVerdict,
  shouldTouch,
  TOUCH_INTERVAL_MS,
} from "@/lib/session-policy";

const T0 = new Date("2026-05-01T08:00:00.000Z");
const at = (ms: number) => new Date(T0.getTime() + ms);
const MINUTE = 60_000;

describe("session limits", () => {
  it("are 30 minutes idle, 12 hours in all, touched at most once a minute, cookie living 24 hours (so the 12-hour end can be explained)", () => {
    expect(IDLE_TIMEOUT_MS).toBe(30 * MINUTE);
    expect(ABSOLUTE_LIFETIME_MS).toBe(12 * 60 * MINUTE);
    expect(TOUCH_INTERVAL_MS).toBe(MINUTE);
    expect(SESSION_COOKIE_TTL_SECONDS).toBe(24 * 60 * 60);
  });
});

describe("sessionVerdict", () => {
  it("keeps a session until one millisecond before the idle timeout, and ends it exactly at it", () => {
    const session = { createdAt: T0, lastSeenAt: T0 };
    expect(sessionVerdict(session, T0)).toBe("active");
    expect(sessionVerdict(session, at(IDLE_TIMEOUT_MS - 1))).toBe("active");
    expect(sessionVerdict(session, at(IDLE_TIMEOUT_MS))).toBe("idle_expired");
    expect(sessionVerdict(session, at(IDLE_TIMEOUT_MS + 1))).toBe("idle_expired");
  });

  it("measures idleness from the last request, not from the start", () => {
    const session = { createdAt: T0, lastSeenAt: at(5 * 60 * MINUTE) };
    expect(sessionVerdict(session, at(5 * 60 * MINUTE + IDLE_TIMEOUT_MS - 1))).toBe("active");
    expect(sessionVerdict(session, at(5 * 60 * MINUTE + IDLE_TIMEOUT_MS))).toBe("idle_expired");
  });

  it("ends a session in use exactly at its absolute lifetime", () => {
    const busy = (now: Date) => ({ createdAt: T0, lastSeenAt: new Date(now.getTime() - MINUTE) });
    expect(sessionVerdict(busy(at(ABSOLUTE_LIFETIME_MS - 1)), at(ABSOLUTE_LIFETIME_MS - 1))).toBe("active");
    expect(sessionVerdict(busy(at(ABSOLUTE_LIFETIME_MS)), at(ABSOLUTE_LIFETIME_MS))).toBe("lifetime_expired");
    expect(sessionVerdict(busy(at(ABSOLUTE_LIFETIME_MS + 1)), at(ABSOLUTE_LIFETIME_MS + 1))).toBe("lifetime_expired");
  });

  it("names the lifetime when both limits have passed", () => {
    expect(sessionVerdict({ createdAt: T0, lastSeenAt: T0 }, at(ABSOLUTE_LIFETIME_MS))).toBe("lifetime_expired");
  });

  it("tolerates a minute of clock difference between instances, no more", () => {
    const fromTheFuture = (ms: number) => ({ createdAt: at(ms), lastSeenAt: at(ms) });
    expect(sessionVerdict(fromTheFuture(TOUCH_INTERVAL_MS), T0)).toBe("active");
    expect(sessionVerdict(fromTheFuture(TOUCH_INTERVAL_MS + 1), T0)).toBe("lifetime_expired");
  });
});

describe("shouldTouch", () => {
  it("writes last_seen_at once a minute at most", () => {
    const session = { createdAt: T0, lastSeenAt: T0 };
    expect(shouldTouch(session, T0)).toBe(false);
    expect(shouldTouch(session, at(TOUCH_INTERVAL_MS - 1))).toBe(false);
    expect(shouldTouch(session, at(TOUCH_INTERVAL_MS))).toBe(true);
    expect(shouldTouch(session, at(10 * TOUCH_INTERVAL_MS))).toBe(true);
  });
});

describe("session secrets", () => {
  it("are 32 random bytes in base64url, never repeated", () => {
    const secrets = new Set(Array.from({ length: 50 }, () => newSessionSecret()));
    expect(secrets.size).toBe(50);
    for (const secret of secrets) {
      expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(secret, "base64url")).toHaveLength(32);
      expect(isSessionSecret(secret)).toBe(true);
    }
  });

  it("are stored as their SHA-256 only", () => {
    const secret = newSessionSecret();
    expect(sessionIdOf(secret)).toBe(createHash("sha256").update(secret).digest("hex"));
    expect(sessionIdOf(secret)).toMatch(/^[0-9a-f]{64}$/);
    expect(sessionIdOf(secret)).not.toContain(secret);
    expect(sessionIdOf("a")).not.toBe(sessionIdOf("b"));
  });

  it("refuses anything a cookie could carry that is not a secret", () => {
    for (const bad of [undefined, null, 42, "", "short", "x".repeat(42), "x".repeat(44), `${"x".repeat(42)}=`, `${"x".repeat(42)}/`, ["x".repeat(43)]]) {
      expect(isSessionSecret(bad)).toBe(false);
    }
    expect(isSessionSecret("x".repeat(43))).toBe(true);
  });
});
