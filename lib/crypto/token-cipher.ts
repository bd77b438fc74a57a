import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

/**
 * AES-256-GCM for access tokens at rest. Stored form: base64(iv | ciphertext | tag) plus the id of the key that
 * sealed it, so several keys can be accepted while `npm run tokens:rotate` moves every row to the current one.
 * The row's context (its store id) is bound as associated data: a ciphertext copied onto another row does not open.
 * Pure: keys come in as arguments, so tests and the rotation script use other rings than the process's.
 */

export type TokenKey = {
  /** Derived from the key itself, so no separate id has to be configured and a key always maps to one id. */
  id: string;
  key: Buffer;
};

export type TokenKeyRing = {
  /** Seals every new token. */
  current: TokenKey;
  /** Retired keys still accepted for opening until rotation has run. */
  previous: TokenKey[];
};

export type SealedToken = { ciphertext: string; keyId: string };

/** Never carries the token, the key or the ciphertext: safe to log and to show. */
export class TokenCipherError extends Error {
  constructor(
    readonly code: "unknown_key" | "malformed" | "authentication_failed" | "bad_key",
    message: string,
  ) {
    super(message);
    this.name = "TokenCipherError";
  }
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

export function tokenKeyFromBase64(base64: string): TokenKey {
  const key = Buffer.from(base64, "base64");
  if (key.length !== 32) throw new TokenCipherError("bad_key", "A token encryption key must be 32 bytes, base64-encoded");
  // A short fingerprint: identifies the key without revealing anything usable about it.
  const id = "k_" + createHash("sha256").update("token-key-id:").update(key).digest("hex").slice(0, 16);
  return { id, key };
}

export function keyRing(currentBase64: string, previousBase64: readonly string[] = []): TokenKeyRing {
  const current = tokenKeyFromBase64(currentBase64);
  const previous = previousBase64.map(tokenKeyFromBase64).filter((key) => key.id !== current.id);
  return { current, previous };
}

// Stryker disable next-line ObjectLiteral: equivalent, TAG_BYTES is GCM's default tag length in Node (the layout test pins it) and setAuthTag is always given exactly that many bytes
const GCM_OPTIONS = { authTagLength: TAG_BYTES };

function findKey(ring: TokenKeyRing, keyId: string): TokenKey | undefined {
  return ring.current.id === keyId ? ring.current : ring.previous.find((key) => key.id === keyId);
}

export function encryptToken(plaintext: string, ring: TokenKeyRing, context: string): SealedToken {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", ring.current.key, iv, GCM_OPTIONS);
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(Buffer.from(plaintext)), cipher.final()]);
  return { ciphertext: Buffer.concat([iv, body, cipher.getAuthTag()]).toString("base64"), keyId: ring.current.id };
}

export function decryptToken(sealed: SealedToken, ring: TokenKeyRing, context: string): string {
  const key = findKey(ring, sealed.keyId);
  if (!key) {
    throw new TokenCipherError(
      "unknown_key",
      `Token sealed with key ${sealed.keyId}, which is neither TOKEN_ENCRYPTION_KEY nor in TOKEN_ENCRYPTION_KEYS_PREVIOUS`,
    );
  }
  const raw = Buffer.from(sealed.ciphertext, "base64");
  if (raw.length < IV_BYTES + TAG_BYTES + 1) throw new TokenCipherError("malformed", "Stored token ciphertext is malformed");
  const decipher = createDecipheriv("aes-256-gcm", key.key, raw.subarray(0, IV_BYTES), GCM_OPTIONS);
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString("utf8");
  } catch {
    throw new TokenCipherError("authentication_failed", `Stored token failed authentication under key ${sealed.keyId}`);
  }
}

/** True when the sealed token should be re-encrypted under the current key. */
export function needsRotation(sealed: SealedToken, ring: TokenKeyRing): boolean {
  return sealed.keyId !== ring.current.id;
}

/** The associated data that ties a stored token to its row. */
export function tokenContext(storeId: number): string {
  return `install-token:store:${storeId}`;
}
