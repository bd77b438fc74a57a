import { describe, expect, it } from "vitest";
import { PlatformError } from "@/lib/platform";
import { assertIdempotencyKey, deriveIdempotencyKey, isValidIdempotencyKey, newIdempotencyKey } from "@/lib/platform/idempotency";

describe("idempotency keys", () => {
  it("makes fresh keys that follow the platform's rule and never repeat", () => {
    const keys = Array.from({ length: 200 }, () => newIdempotencyKey());
    for (const key of keys) {
      expect(key.length).toBeLessThanOrEqual(64);
      expect(key).toMatch(/^[A-Za-z0-9_\-:.]+$/);
    }
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("derives the same valid key from the same parts, a different one from different parts", () => {
    const key = deriveIdempotencyKey("nightly-sync", 101, "2025-03-01");
    expect(isValidIdempotencyKey(key)).toBe(true);
    expect(deriveIdempotencyKey("nightly-sync", 101, "2025-03-01")).toBe(key);
    expect(deriveIdempotencyKey("nightly-sync", 102, "2025-03-01")).not.toBe(key);
  });

  it("accepts the documented alphabet up to 64 characters and refuses anything else", () => {
    expect(isValidIdempotencyKey("A-z_0:9.x")).toBe(true);
    expect(isValidIdempotencyKey("a".repeat(64))).toBe(true);
    expect(isValidIdempotencyKey("a".repeat(65))).toBe(false);
    expect(isValidIdempotencyKey("")).toBe(false);
    expect(isValidIdempotencyKey("has space")).toBe(false);
    expect(isValidIdempotencyKey("slash/")).toBe(false);
    expect(isValidIdempotencyKey("é")).toBe(false);
  });

  it("refuses a malformed caller key locally as a validation error", () => {
    expect(() => assertIdempotencyKey("not valid!")).toThrow(PlatformError);
    try {
      assertIdempotencyKey("not valid!");
    } catch (error) {
      expect((error as PlatformError).kind).toBe("local");
      expect((error as PlatformError).isValidation).toBe(true);
    }
  });
});
