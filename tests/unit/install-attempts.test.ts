import { describe, expect, it } from "vitest";
import { addAttempt, liveAttempts, MAX_PENDING_ATTEMPTS, takeAttempt, type PendingAttempt } from "@/lib/oauth/install-attempts";
import { INSTALL_ATTEMPT_TTL_SECONDS } from "@/lib/oauth/pkce";
import { landingAfterInstall, safeReturnPath } from "@/lib/oauth/return-path";

const NOW = 1_790_000_000_000;

function attempt(n: number, startedAt = NOW - n * 1000, returnTo: string | null = null): PendingAttempt {
  return { state: `state-${n}`, codeVerifier: `verifier-${n}`, startedAt, returnTo };
}

describe("return path after signing in", () => {
  it("accepts the store pages of this app, with their query", () => {
    for (const path of ["/stores/101", "/stores/101/", "/stores/101/orders", "/stores/7/orders/5001", "/stores/101/orders?status=shipped&phone=%2B213555"]) {
      expect(safeReturnPath(path)).toBe(path);
    }
    // 512 characters at most.
    const longest = `/stores/101/${"a".repeat(500)}`;
    expect(longest).toHaveLength(512);
    expect(safeReturnPath(longest)).toBe(longest);
  });

  it("refuses anything that could leave the app or is not a store page", () => {
    for (const value of [
      "https://evil.example/stores/101",
      "//evil.example/stores/101",
      "/stores/101/../../evil",
      "/stores/0101",
      "/stores/2147483648",
      "/stores/101\\evil",
      "/stores/101/orders#x",
      "/\\evil.example",
      "/install",
      "/",
      `/stores/101/${"a".repeat(501)}`,
      42,
      null,
    ]) {
      expect(safeReturnPath(value)).toBeNull();
    }
  });

  it("lands on the return path only when its store was chosen on the consent screen", () => {
    expect(landingAfterInstall("/stores/102/orders", [101, 102])).toBe("/stores/102/orders");
    expect(landingAfterInstall("/stores/103/orders", [101, 102])).toBe("/stores?installed=101,102");
    expect(landingAfterInstall(null, [101])).toBe("/stores?installed=101");
  });
});

describe("install attempts in progress", () => {
  it("keeps the attempts the platform would still honour, oldest first, and drops anything else", () => {
    const expired = attempt(9, NOW - INSTALL_ATTEMPT_TTL_SECONDS * 1000);
    const stored = [attempt(1), "junk", { state: 3 }, expired, attempt(2), { ...attempt(3), returnTo: "//evil" }];
    expect(liveAttempts(stored, NOW).map((a) => a.state)).toEqual(["state-3", "state-2", "state-1"]);
    expect(liveAttempts(stored, NOW)[0]?.returnTo).toBeNull();
    expect(liveAttempts("not a list", NOW)).toEqual([]);
    // Each field must have its type: a start time as text would pass the age check by coercion.
    const good = attempt(1);
    for (const bad of [null, undefined, 5, { ...good, state: 5 }, { ...good, codeVerifier: 5 }, { ...good, startedAt: String(good.startedAt) }]) {
      expect(liveAttempts([bad], NOW)).toEqual([]);
    }
  });

  it("adds beside the attempts in progress; when full, only the merchant's own request makes room", () => {
    const full = Array.from({ length: MAX_PENDING_ATTEMPTS }, (_, i) => attempt(MAX_PENDING_ATTEMPTS - i));
    const fresh = attempt(0, NOW);

    expect(addAttempt(full.slice(1), fresh, true)).toEqual({ added: true, attempts: [...full.slice(1), fresh] });
    expect(addAttempt(full, fresh, true)).toEqual({ added: false, attempts: full });
    const own = addAttempt(full, fresh, false);
    expect(own.added).toBe(true);
    expect(own.attempts).toEqual([...full.slice(1), fresh]);
  });

  it("spends only the attempt whose state the callback carries", () => {
    const attempts = [attempt(2), attempt(1)];
    const taken = takeAttempt(attempts, "state-2");
    expect(taken).toEqual({ attempt: attempts[0], matched: true, rest: [attempts[1]] });

    const forged = takeAttempt(attempts, "state-from-elsewhere");
    expect(forged.matched).toBe(false);
    expect(forged.rest).toEqual(attempts);
    // Checked against the newest attempt, so the callback is refused as a state mismatch.
    expect(forged.attempt).toBe(attempts[1]);

    expect(takeAttempt(attempts, null)).toMatchObject({ matched: false, rest: attempts });
    const three = [attempt(3), attempt(2), attempt(1)];
    expect(takeAttempt(three, "state-from-elsewhere").attempt).toBe(three[2]);
    expect(takeAttempt([], "state-1")).toEqual({ attempt: null, matched: false, rest: [] });
  });
});
