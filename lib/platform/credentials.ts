import "server-only";
import type { Db } from "@/db/client";
import { findInstall, setInstallState } from "@/db/queries/installs";
import type { Install, InstallState } from "@/db/schema";
import { openInstallToken } from "@/lib/installs/tokens";
import { PlatformError, type InstallStateCode } from "./errors";

/**
 * The store's token and what the platform last said about its install. Suspension, a plan below the app's minimum
 * and a pending approval are lifted by the platform, not by a new install, so those installs keep calling; only an
 * install without a usable token (revoked, uninstalled, never installed) is refused here, before any network call.
 */

export type Credentials = { token: string; installId: number };

/** States the platform lifts by itself: the stored token still works once it does. */
const LIFTED_STATES: readonly InstallState[] = ["app_suspended", "app_plan_required", "app_not_approved"];
const USABLE_STATES: readonly InstallState[] = ["active", ...LIFTED_STATES];

const STATE_FOR_CODE: Record<InstallStateCode, InstallState> = {
  app_uninstalled: "uninstalled",
  app_suspended: "app_suspended",
  app_not_approved: "app_not_approved",
  app_plan_required: "app_plan_required",
};

export type CredentialSource = {
  get(): Promise<Credentials>;
  /** 401: the token is dead. Records "revoked" (which destroys it) and stops using it. */
  revoked(): Promise<void>;
  /** 403 with an install state code: recorded on the install. */
  stateRefused(code: InstallStateCode): Promise<void>;
  /** A successful call: an install recorded as suspended (or similar) is active again. */
  succeeded(): Promise<void>;
};

function inactive(storeId: number, install: Install | null): PlatformError {
  const message = !install
    ? `The app is not installed on store ${storeId}. Install it first.`
    : `The app's access to store ${storeId} has ended (${install.state}). The merchant must install the app again.`;
  return new PlatformError({ kind: "local", status: null, code: "install_inactive", message });
}

export function createCredentialSource(db: Db, storeId: number, now: () => number): CredentialSource {
  let loaded: Promise<{ credentials: Credentials; install: Install }> | null = null;
  let dead: PlatformError | null = null;

  const load = async () => {
    const install = await findInstall(db, storeId);
    if (!install || !USABLE_STATES.includes(install.state as InstallState)) throw inactive(storeId, install);
    const token = openInstallToken(install);
    if (!token) throw inactive(storeId, install);
    return { credentials: { token, installId: install.installId }, install };
  };

  /**
   * Records a state only if the row still holds the token this client used: when the merchant installed again
   * meanwhile, the old token's 401 must not destroy the new one. The check is part of the write (see setInstallState):
   * checked by a read first, a re-install landing between the two would still lose its token.
   */
  const record = async (state: InstallState) => {
    const current = loaded ? await loaded.catch(() => null) : null;
    const expectedCiphertext = current?.install.tokenCiphertext;
    if (!expectedCiphertext) return;
    await setInstallState(db, storeId, state, new Date(now()), { expectedCiphertext });
  };

  return {
    async get() {
      if (dead) throw dead;
      loaded ??= load();
      try {
        return (await loaded).credentials;
      } catch (error) {
        loaded = null;
        throw error;
      }
    },
    async revoked() {
      await record("revoked");
      dead = inactive(storeId, { state: "revoked" } as Install);
    },
    async stateRefused(code) {
      const state = STATE_FOR_CODE[code];
      await record(state);
      if (state === "uninstalled") dead = inactive(storeId, { state } as Install);
      else if (loaded) {
        const current = await loaded.catch(() => null);
        if (current) current.install = { ...current.install, state };
      }
    },
    async succeeded() {
      const current = loaded ? await loaded.catch(() => null) : null;
      if (!current || !LIFTED_STATES.includes(current.install.state as InstallState)) return;
      await record("active");
      current.install = { ...current.install, state: "active" };
    },
  };
}
