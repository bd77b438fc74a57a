import type { DbOrTx } from "@/db/client";
import { markInstallUninstalled, setInstallState } from "@/db/queries/installs";
import { revokeStoreFromSessions } from "@/db/queries/sessions";
import type { Install } from "@/db/schema";
import { isClosed, isUninstalled, type InstallState } from "./state";

/**
 * What follows from a new install state, decided here rather than in the queries: a closed state (lib/installs/state.ts)
 * has a dead token, so the token is destroyed and every session loses the store; an uninstall keeps its time.
 */

/**
 * Records what the platform said about an install (403 app_suspended, 401 revoked...). Returns the row, or null if
 * absent. With `expectedCiphertext` the row changes only while it still holds that token (see setInstallState), so a
 * merchant who installs again while the old token's 401 is being recorded keeps the new one; null then means
 * nothing changed.
 */
export async function recordInstallState(
  db: DbOrTx,
  storeId: number,
  state: InstallState,
  at: Date = new Date(),
  options: { expectedCiphertext?: string } = {},
): Promise<Install | null> {
  // A state only a new install leaves has a dead token: keeping the ciphertext would only be a liability.
  const closed = isClosed(state);
  return db.transaction(async (tx) => {
    const row = await setInstallState(tx, storeId, {
      state,
      at,
      destroyToken: closed,
      ...(isUninstalled(state) ? { uninstalledAt: at } : {}),
      ...options,
    });
    // A token revoked for good closes the store to every session, in the update's transaction: the install row
    // stays locked until both are done, and a re-install writes that row first (upsertInstalledStores), so it waits
    // for the revoke and the session its consent opens keeps the store.
    if (row && closed) await revokeStoreFromSessions(tx, storeId);
    return row;
  });
}

/**
 * The merchant uninstalled the app: an `app.uninstalled` event for `installId` on `storeId`, at `at` (the
 * platform's time, recorded as is). The install is found by its install id, never by comparing the platform's
 * clock with ours. A notice for an install the merchant made again is never sent (the platform drops a pending
 * notice when the store is installed again), and a redelivered one is stopped by its event id. Every session
 * loses the store in the same transaction. Returns true when the row changed.
 */
export async function recordUninstall(db: DbOrTx, input: { storeId: number; installId: number; at: Date }): Promise<boolean> {
  return db.transaction(async (tx) => {
    if (!(await markInstallUninstalled(tx, input))) return false;
    await revokeStoreFromSessions(tx, input.storeId);
    return true;
  });
}
