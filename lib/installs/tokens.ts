import type { Db, DbOrTx } from "@/db/client";
import { findInstall, upsertInstalledStores } from "@/db/queries/installs";
import type { Install } from "@/db/schema";
import { envKeyRing } from "@/lib/crypto/key-ring";
import { decryptToken, encryptToken, tokenContext, type TokenKeyRing } from "@/lib/crypto/token-cipher";
import { log } from "@/lib/log";
import { closedInstallStates, mayCallPlatform } from "./state";

/**
 * The only module that turns access tokens into ciphertext and back. Everything else sees install rows, whose
 * token column is sealed, and asks here when a call really needs the token.
 */

/**
 * One token exchange: the stores the merchant installed the app on, each with its token, and the scopes granted.
 * The platform client's TokenExchangeResult has this shape; it is spelled out here so this module does not import
 * the client, which opens tokens through it.
 */
export type TokenExchange = {
  scopes: readonly string[];
  stores: readonly { storeId: number; storeName: string; installId: number; accessToken: string }[];
};

/** Seals every token of one exchange and stores all the stores in one transaction. */
export async function saveInstalledStores(
  db: Db | DbOrTx,
  exchange: TokenExchange,
  options: { at?: Date; ring?: TokenKeyRing } = {},
): Promise<Install[]> {
  const ring = options.ring ?? envKeyRing();
  const { saved, dropped } = await upsertInstalledStores(db, {
    scopes: exchange.scopes,
    at: options.at ?? new Date(),
    closedStates: closedInstallStates(),
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
  for (const row of dropped) log.warn("dropped a stale install row whose install id the platform gave to another store", row);
  return saved;
}

/**
 * Opens the token of an install row whatever its state (null when the row holds none). For callers that decide
 * themselves which states may still call (the API client asks lib/installs/state.ts).
 * Throws TokenCipherError when the configured keys cannot open it: a deployment mistake (a key dropped before
 * rotation) whose message names the key id, never the token. The API client reports it as a PlatformError.
 */
export function openInstallToken(install: Install, ring: TokenKeyRing = envKeyRing()): string | null {
  if (!install.tokenCiphertext || !install.tokenKeyId) return null;
  return decryptToken({ ciphertext: install.tokenCiphertext, keyId: install.tokenKeyId }, ring, tokenContext(install.storeId));
}

/** The token to call the platform for a store, or null unless its install state may call and still holds one. */
export async function loadAccessToken(
  db: DbOrTx,
  storeId: number,
  ring: TokenKeyRing = envKeyRing(),
): Promise<{ token: string; installId: number } | null> {
  const install = await findInstall(db, storeId);
  if (!install || !mayCallPlatform(install.state)) return null;
  const token = openInstallToken(install, ring);
  return token === null ? null : { token, installId: install.installId };
}
