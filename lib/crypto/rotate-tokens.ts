import type { DbOrTx } from "@/db/client";
import { listInstallsSealedWithOtherKey, replaceSealedToken } from "@/db/queries/installs";
import { decryptToken, encryptToken, TokenCipherError, tokenContext, type TokenKeyRing } from "./token-cipher";

export type RotationReport = {
  /** Re-encrypted under the current key. */
  rotated: number[];
  /** Changed by someone else while rotating (re-install, uninstall): left as they now are. */
  skipped: number[];
  /** Could not be opened with any configured key: their key must be put back in TOKEN_ENCRYPTION_KEYS_PREVIOUS. */
  failed: { storeId: number; keyId: string; reason: string }[];
};

/**
 * Re-encrypts every stored token that is not sealed with the ring's current key. Safe to run again and to run
 * while the app serves requests: each row is swapped only if it still holds what was read.
 */
export async function rotateTokenKeys(db: DbOrTx, ring: TokenKeyRing): Promise<RotationReport> {
  const report: RotationReport = { rotated: [], skipped: [], failed: [] };
  for (const install of await listInstallsSealedWithOtherKey(db, ring.current.id)) {
    const sealed = { ciphertext: install.tokenCiphertext ?? "", keyId: install.tokenKeyId ?? "" };
    let token: string;
    try {
      token = decryptToken(sealed, ring, tokenContext(install.storeId));
    } catch (error) {
      if (!(error instanceof TokenCipherError)) throw error;
      report.failed.push({ storeId: install.storeId, keyId: sealed.keyId, reason: error.message });
      continue;
    }
    const next = encryptToken(token, ring, tokenContext(install.storeId));
    const swapped = await replaceSealedToken(db, install.storeId, sealed, next);
    (swapped ? report.rotated : report.skipped).push(install.storeId);
  }
  return report;
}
