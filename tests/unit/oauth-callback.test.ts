import { describe, expect, it } from "vitest";
import { checkCallback } from "@/lib/oauth/callback";
import type { InstallAttempt } from "@/lib/oauth/pkce";

const NOW = 1_700_000_000_000;
const attempt: InstallAttempt = { state: "the-state-of-this-browser", codeVerifier: "v".repeat(43), startedAt: NOW - 60_000 };
const code = "ab".repeat(32);
const params = (query: Record<string, string>) => new URLSearchParams(query);

describe("checkCallback", () => {
  it("accepts the code when state matches this browser's attempt within 10 minutes", () => {
    expect(checkCallback(params({ code, state: attempt.state }), attempt, NOW)).toEqual({
      ok: true,
      code,
      codeVerifier: attempt.codeVerifier,
    });
  });

  it("refuses a missing state", () => {
    expect(checkCallback(params({ code }), attempt, NOW)).toEqual({ ok: false, reason: "missing_state" });
    expect(checkCallback(params({ code, state: "" }), attempt, NOW)).toEqual({ ok: false, reason: "missing_state" });
  });

  it("refuses a state that is not this browser's (forged, or of another attempt)", () => {
    expect(checkCallback(params({ code, state: "forged" }), attempt, NOW)).toEqual({ ok: false, reason: "state_mismatch" });
    expect(checkCallback(params({ code, state: attempt.state + "x" }), attempt, NOW)).toEqual({ ok: false, reason: "state_mismatch" });
  });

  it("refuses any callback when no attempt is in progress (expired cookie, replay after use)", () => {
    expect(checkCallback(params({ code, state: attempt.state }), null, NOW)).toEqual({ ok: false, reason: "expired" });
  });

  it("refuses an attempt older than the consent request's 10 minutes", () => {
    const old = { ...attempt, startedAt: NOW - 10 * 60_000 - 1 };
    expect(checkCallback(params({ code, state: old.state }), old, NOW)).toEqual({ ok: false, reason: "expired" });
    const edge = { ...attempt, startedAt: NOW - 10 * 60_000 };
    expect(checkCallback(params({ code, state: edge.state }), edge, NOW).ok).toBe(true);
  });

  it("refuses a missing or malformed code before any exchange", () => {
    expect(checkCallback(params({ state: attempt.state }), attempt, NOW)).toEqual({ ok: false, reason: "missing_code" });
    expect(checkCallback(params({ state: attempt.state, code: "abc" }), attempt, NOW)).toEqual({ ok: false, reason: "missing_code" });
    expect(checkCallback(params({ state: attempt.state, code: "zz".repeat(32) }), attempt, NOW)).toEqual({
      ok: false,
      reason: "missing_code",
    });
  });

  it("turns the authorize endpoint's error answers into their own reasons", () => {
    for (const error of ["access_denied", "invalid_scope", "invalid_request", "unsupported_response_type"]) {
      expect(checkCallback(params({ error, state: attempt.state }), attempt, NOW)).toEqual({ ok: false, reason: error });
    }
    // invalid_request for a bad state comes back without state.
    expect(checkCallback(params({ error: "invalid_request" }), attempt, NOW)).toEqual({ ok: false, reason: "invalid_request" });
    expect(checkCallback(params({ error: "temporarily_unavailable", state: attempt.state }), attempt, NOW)).toEqual({
      ok: false,
      reason: "authorize_error",
    });
  });

  it("treats an error answer carrying another browser's state as forged, and never lets an error through with a code", () => {
    expect(checkCallback(params({ error: "access_denied", state: "forged" }), attempt, NOW)).toEqual({
      ok: false,
      reason: "state_mismatch",
    });
    expect(checkCallback(params({ error: "access_denied", code, state: attempt.state }), attempt, NOW).ok).toBe(false);
  });

  it("allows a minute of clock skew between instances for an attempt dated in the future, and no more", () => {
    const ahead = (ms: number) => ({ ...attempt, startedAt: NOW + ms });
    expect(checkCallback(params({ code, state: attempt.state }), ahead(60_000), NOW).ok).toBe(true);
    expect(checkCallback(params({ code, state: attempt.state }), ahead(60_001), NOW)).toEqual({ ok: false, reason: "expired" });
  });

  it("takes only a code of exactly 64 hex characters, either case", () => {
    const upper = "AB".repeat(32);
    expect(checkCallback(params({ code: upper, state: attempt.state }), attempt, NOW)).toEqual({
      ok: true,
      code: upper,
      codeVerifier: attempt.codeVerifier,
    });
    for (const shaped of [`x${code}`, `${code}x`, `${code}a`, code.slice(1), ` ${code}`]) {
      expect(checkCallback(params({ code: shaped, state: attempt.state }), attempt, NOW)).toEqual({ ok: false, reason: "missing_code" });
    }
  });

  it("reports an error answer as such when no attempt is in progress, whatever state it carries", () => {
    expect(checkCallback(params({ error: "access_denied", state: "anything" }), null, NOW)).toEqual({ ok: false, reason: "access_denied" });
    expect(checkCallback(params({ error: "access_denied", state: "" }), attempt, NOW)).toEqual({ ok: false, reason: "access_denied" });
    // An empty error is still an error answer: no code is exchanged.
    expect(checkCallback(params({ error: "", code, state: attempt.state }), attempt, NOW)).toEqual({ ok: false, reason: "authorize_error" });
    // A name inherited by every object is not one of the mapped errors.
    expect(checkCallback(params({ error: "constructor", state: attempt.state }), attempt, NOW)).toEqual({
      ok: false,
      reason: "authorize_error",
    });
  });

  it("uses the current time when none is given", () => {
    const fresh = { ...attempt, startedAt: Date.now() };
    expect(checkCallback(params({ code, state: fresh.state }), fresh).ok).toBe(true);
    const stale = { ...attempt, startedAt: Date.now() - 11 * 60_000 };
    expect(checkCallback(params({ code, state: stale.state }), stale)).toEqual({ ok: false, reason: "expired" });
  });
});
