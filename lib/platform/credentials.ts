import "server-only";
import type { Db } from "@/db/client";
import { findInstall } from "@/db/queries/installs";
import type { Install } from "@/db/schema";
import { TokenCipherError } from "@/lib/crypto/token-cipher";
import { isLiftedByPlatform, mayCallPlatform, STATE_FOR_CODE, type InstallState } from "@/lib/installs/state";
import { openInstallToken } from "@/lib/installs/tokens";
import { PlatformError, type InstallStateCode } from "./errors";

/**
 * The store's token and what the platform last said about its install. Which states may call is decided in
 * lib/installs/state.ts: an install the platform suspended (or similar) keeps calling, because the platform lifts
 * those by itself; an install without a usable token (revoked, uninstalled, never installed) is refused here,
 * before any network call.
 *
 * What the platform says about the install is reported through `InstallStateRecorder`, a function in the client's
 * configuration (lib/platform/presets.ts wires lib/installs/record-state.ts): the client decides nothing about
 * tokens or sessions, and reads the install but writes nothing of it.
 */

/** A state the platform reported about the install whose sealed token is `expectedCiphertext`. */
export type InstallStateReport = { storeId: number; state: InstallState; at: Date; expectedCiphertext: string };

/**
 * Records a reported state, only while the install still holds `expectedCiphertext` (a merchant who installed again
 * meanwhile keeps the new token). "revoked" and "uninstalled" also destroy the token and end the store's sessions.
 */
export type InstallStateRecorder = (report: InstallStateReport) => Promise<void>;

export type Credentials = { token: string; installId: number };

export type CredentialSource = {
  get(): Promise<Credentials>;
  /** 401: the token is dead. Records "revoked" (which destroys it) and stops using it. */
  revoked(): Promise<void>;
  /** 403 with an install state code: recorded on the install. */
  stateRefused(code: InstallStateCode): Promise<void>;
  /** A successful call: an install recorded as suspended (or similar) is active again. */
  succeeded(): Promise<void>;
};

function inactive(storeId: number, state: string | null): PlatformError {
  const message = !state
    ? `The app is not installed on store ${storeId}. Install it first.`
    : `The app's access to store ${storeId} has ended (${state}). The merchant must install the app again.`;
  return new PlatformError({ kind: "local", status: null, code: "install_inactive", message });
}

/** A token the configured keys cannot open is this deployment's mistake, reported like any refusal before a call. */
function openSealed(install: Install): string | null {
  try {
    return openInstallToken(install);
  } catch (error) {
    if (!(error instanceof TokenCipherError)) throw error;
    throw new PlatformError({ kind: "local", status: null, code: "token_unreadable", message: error.message, cause: error });
  }
}

export function createCredentialSource(
  db: Db,
  storeId: number,
  now: () => number,
  recordState: InstallStateRecorder,
): CredentialSource {
  let loaded: Promise<{ credentials: Credentials; install: Install }> | null = null;
  let dead: PlatformError | null = null;

  const load = async () => {
    const install = await findInstall(db, storeId);
    if (!install || !mayCallPlatform(install.state)) throw inactive(storeId, install?.state ?? null);
    const token = openSealed(install);
    if (!token) throw inactive(storeId, install.state);
    return { credentials: { token, installId: install.installId }, install };
  };

  /**
   * Records a state only if the row still holds the token this client used: when the merchant installed again
   * meanwhile, the old token's 401 must not destroy the new one. The check is part of the recorder's write (see
   * setInstallState): checked by a read first, a re-install landing between the two would still lose its token.
   */
  const record = async (state: InstallState) => {
    const current = loaded ? await loaded.catch(() => null) : null;
    const expectedCiphertext = current?.install.tokenCiphertext;
    if (!expectedCiphertext) return;
    await recordState({ storeId, state, at: new Date(now()), expectedCiphertext });
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
      dead = inactive(storeId, "revoked");
    },
    async stateRefused(code) {
      const state = STATE_FOR_CODE[code];
      await record(state);
      if (!mayCallPlatform(state)) dead = inactive(storeId, state);
      else if (loaded) {
        const current = await loaded.catch(() => null);
        if (current) current.install = { ...current.install, state };
      }
    },
    async succeeded() {
      const current = loaded ? await loaded.catch(() => null) : null;
      if (!current || !isLiftedByPlatform(current.install.state)) return;
      await record("active");
      current.install = { ...current.install, state: "active" };
    },
  };
}
