import { calculatePKCECodeChallenge, generateRandomCodeVerifier, generateRandomState } from "oauth4webapi";

/** What the app keeps (sealed in a short-lived cookie) between GET /install and the callback. */
export type InstallAttempt = {
  state: string;
  codeVerifier: string;
  /** Epoch milliseconds. */
  startedAt: number;
};

/** The platform forgets a consent request after 10 minutes; an attempt is worth nothing after that either. */
export const INSTALL_ATTEMPT_TTL_SECONDS = 10 * 60;

/**
 * A fresh attempt: 32 random bytes each for state and verifier (43 base64url characters, within the platform's
 * 43-128 and 1-1024 limits) and the S256 challenge of the verifier.
 */
export async function startInstallAttempt(now: number = Date.now()): Promise<{ attempt: InstallAttempt; codeChallenge: string }> {
  const codeVerifier = generateRandomCodeVerifier();
  const codeChallenge = await calculatePKCECodeChallenge(codeVerifier);
  return { attempt: { state: generateRandomState(), codeVerifier, startedAt: now }, codeChallenge };
}
