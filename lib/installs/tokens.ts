import type { Db, DbOrTx } from "@/db/client";
import { findInstall, upsertInstalledStores } from "@/db/queries/installs";
import type { Install } from "@/db/schema";
import { envKeyRing } from "@/lib/crypto/key-ring";
import { decryptToken, encryptToken, TokenCipherError, tokenContext, type TokenKeyRing } from "@/lib/crypto/token-cipher";
import { PlatformError, type TokenExchangeResult } from "@/lib/platform";

/**
 * The only module that turns access tokens into ciphertext and back. Everything else sees install rows, whose
 * token column is sealed, and asks here when a call really needs the token.
 */

/** Seals every token of one exchange and stores all the stores in one transaction. */
export async function saveInstalledStores(
  db: Db | DbOrTx,
  exchange: TokenExchangeResult,
  options: { at?: Date; ring?: TokenKeyRing } = {},
): Promise<Install[]> {
  const ring = options.ring ?? envKeyRing();
  return upsertInstalledStores(db, {
    scopes: exchange.scopes,
    at: options.at ?? new Date(),
    stores: exchange.stores.map((store) => {
      const sealed = encryptToken(store.accessToken, ring, tokenContext(store.storeId));
      return {
        storeId: store.storeId,
        storeName: store.storeName,
        installId: store.installId,
        tokenCiphertext: sealed.ciphertext,
        tokenKeyId: sealed.keyId,
      };
    }),
  });
}

/**
 * Opens the token of an install row whatever its state (null when the row holds none). For callers that decide
 * themselves which states may still call, such as an install whose suspension the platform may have lifted.
 * A token the configured keys cannot open is a deployment mistake (a key dropped before rotation), reported as a
 * local PlatformError that names the key id and never the token.
 */
export function openInstallToken(install: Install, ring: TokenKeyRing = envKeyRing()): string | null {
  if (!install.tokenCiphertext || !install.tokenKeyId) return null;
  try {
    return decryptToken({ ciphertext: install.tokenCiphertext, keyId: install.tokenKeyId }, ring, tokenContext(install.storeId));
  } catch (error) {
    if (error instanceof TokenCipherError) {
      throw new PlatformError({ kind: "local", status: null, code: "token_unreadable", message: error.message });
    }
    throw error;
  }
}

/** The token to call the platform for a store, or null unless the install is active and still holds one. */
export async function loadAccessToken(
  db: DbOrTx,
  storeId: number,
  ring: TokenKeyRing = envKeyRing(),
): Promise<{ token: string; installId: number } | null> {
  const install = await findInstall(db, storeId);
  if (!install || install.state !== "active") return null;
  const token = openInstallToken(install, ring);
  return token === null ? null : { token, installId: install.installId };
}
