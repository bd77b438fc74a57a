import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  decryptToken,
  encryptToken,
  keyRing,
  needsRotation,
  TokenCipherError,
  tokenContext,
  tokenKeyFromBase64,
} from "@/lib/crypto/token-cipher";

const keyA = randomBytes(32).toString("base64");
const keyB = randomBytes(32).toString("base64");
const TOKEN = "svcpk_live_" + "f".repeat(40);
const context = tokenContext(101);

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return error instanceof TokenCipherError ? error.code : "other";
  }
  return undefined;
}

describe("token cipher", () => {
  it("round-trips a token and never stores it in clear", () => {
    const ring = keyRing(keyA);
    const sealed = encryptToken(TOKEN, ring, context);
    expect(sealed.ciphertext).not.toContain("svcpk_live_");
    expect(Buffer.from(sealed.ciphertext, "base64").toString("latin1")).not.toContain("svcpk_live_");
    expect(sealed.keyId).toBe(ring.current.id);
    expect(decryptToken(sealed, ring, context)).toBe(TOKEN);
  });

  it("uses a fresh IV each time (same token, different ciphertexts) with layout iv(12) | body | tag(16)", () => {
    const ring = keyRing(keyA);
    const first = encryptToken(TOKEN, ring, context);
    const second = encryptToken(TOKEN, ring, context);
    expect(first.ciphertext).not.toBe(second.ciphertext);
    expect(Buffer.from(first.ciphertext, "base64").length).toBe(12 + Buffer.byteLength(TOKEN) + 16);
  });

  it("refuses a tampered ciphertext", () => {
    const ring = keyRing(keyA);
    const sealed = encryptToken(TOKEN, ring, context);
    const raw = Buffer.from(sealed.ciphertext, "base64");
    raw[14] = (raw[14] ?? 0) ^ 1;
    expect(codeOf(() => decryptToken({ ...sealed, ciphertext: raw.toString("base64") }, ring, context))).toBe("authentication_failed");
    expect(codeOf(() => decryptToken({ ...sealed, ciphertext: "AAAA" }, ring, context))).toBe("malformed");
  });

  it("binds the ciphertext to its store: copied onto another store's row it does not open", () => {
    const ring = keyRing(keyA);
    const sealed = encryptToken(TOKEN, ring, tokenContext(101));
    expect(codeOf(() => decryptToken(sealed, ring, tokenContext(102)))).toBe("authentication_failed");
  });

  it("opens tokens sealed with a previous key and seals new ones with the current key", () => {
    const old = encryptToken(TOKEN, keyRing(keyA), context);
    const rotated = keyRing(keyB, [keyA]);
    expect(needsRotation(old, rotated)).toBe(true);
    expect(decryptToken(old, rotated, context)).toBe(TOKEN);
    const fresh = encryptToken(TOKEN, rotated, context);
    expect(fresh.keyId).toBe(tokenKeyFromBase64(keyB).id);
    expect(needsRotation(fresh, rotated)).toBe(false);
  });

  it("names the unknown key id, and nothing secret, when a key was dropped too early", () => {
    const old = encryptToken(TOKEN, keyRing(keyA), context);
    try {
      decryptToken(old, keyRing(keyB), context);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(TokenCipherError);
      const message = (error as Error).message;
      expect(message).toContain(old.keyId);
      expect(message).not.toContain(keyA);
      expect(message).not.toContain(old.ciphertext);
      expect(message).not.toContain("svcpk_live_");
    }
  });

  it("derives a stable key id per key that reveals nothing of the key", () => {
    expect(tokenKeyFromBase64(keyA).id).toBe(tokenKeyFromBase64(keyA).id);
    expect(tokenKeyFromBase64(keyA).id).not.toBe(tokenKeyFromBase64(keyB).id);
    expect(tokenKeyFromBase64(keyA).id).toMatch(/^k_[0-9a-f]{16}$/);
    expect(keyRing(keyA, [keyA, keyB]).previous.map((key) => key.id)).toEqual([tokenKeyFromBase64(keyB).id]);
    expect(codeOf(() => tokenKeyFromBase64(randomBytes(16).toString("base64")))).toBe("bad_key");
  });

  it("opens a fixed vector sealed outside this code base, and derives its documented key id", () => {
    // Computed with Python's `cryptography` (AESGCM) and `openssl dgst -sha256`, not with this module:
    //   key = bytes 0..31, iv = bytes 100..111, associated data "install-token:store:101",
    //   id = "k_" + first 16 hex of sha256("token-key-id:" + key).
    const key = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";
    const sealed = { ciphertext: "ZGVmZ2hpamtsbW5vO229FhK2OvdIBwCevwYekjDGaPhcs2A8gpG4BpiBOufo", keyId: "k_2667ee34e00b8a6a" };
    expect(tokenKeyFromBase64(key).id).toBe(sealed.keyId);
    expect(decryptToken(sealed, keyRing(key), "install-token:store:101")).toBe("svcpk_live_vector");
    expect(decryptToken(sealed, keyRing(keyA, [keyB, key]), tokenContext(101))).toBe("svcpk_live_vector");
  });

  it("refuses a key id that is in no slot of the ring, even with previous keys configured", () => {
    const keyC = randomBytes(32).toString("base64");
    const sealed = encryptToken(TOKEN, keyRing(keyA), context);
    expect(codeOf(() => decryptToken(sealed, keyRing(keyB, [keyC]), context))).toBe("unknown_key");
    // The id decides which key is tried: a known id on a ciphertext sealed by another key fails authentication.
    expect(codeOf(() => decryptToken({ ...sealed, keyId: tokenKeyFromBase64(keyC).id }, keyRing(keyB, [keyC]), context))).toBe(
      "authentication_failed",
    );
  });

  it("calls too short to hold iv, tag and one byte malformed, and tries anything longer", () => {
    const ring = keyRing(keyA);
    const sealed = (bytes: number) => ({ ciphertext: randomBytes(bytes).toString("base64"), keyId: ring.current.id });
    expect(codeOf(() => decryptToken(sealed(12 + 16), ring, context))).toBe("malformed");
    expect(codeOf(() => decryptToken(sealed(12 + 16 + 1), ring, context))).toBe("authentication_failed");
  });

  it("says in each error what failed and under which key, the reason the rotation report shows", () => {
    const ring = keyRing(keyA);
    const sealed = encryptToken(TOKEN, ring, context);
    const messageOf = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return (error as Error).message;
      }
      return undefined;
    };
    expect(messageOf(() => decryptToken({ ...sealed, ciphertext: "AAAA" }, ring, context))).toBe("Stored token ciphertext is malformed");
    expect(messageOf(() => decryptToken(sealed, ring, tokenContext(102)))).toBe(
      `Stored token failed authentication under key ${ring.current.id}`,
    );
  });

  it("takes only 32-byte keys, and its errors say what is wrong without the secret", () => {
    for (const bytes of [0, 16, 31, 33, 64]) {
      expect(codeOf(() => tokenKeyFromBase64(randomBytes(bytes).toString("base64")))).toBe("bad_key");
    }
    const error = (() => {
      try {
        tokenKeyFromBase64(randomBytes(31).toString("base64"));
      } catch (caught) {
        return caught as Error;
      }
    })();
    expect(error?.name).toBe("TokenCipherError");
    expect(error?.message).toMatch(/32 bytes, base64/);
  });
});
