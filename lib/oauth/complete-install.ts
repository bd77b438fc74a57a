import type { PgBoss } from "pg-boss";
import type { Db } from "@/db/client";
import type { Install } from "@/db/schema";
import type { TokenKeyRing } from "@/lib/crypto/token-cipher";
import { saveInstalledStores } from "@/lib/installs/tokens";
import { enqueueBackfills } from "@/lib/jobs/backfill";
import { log } from "@/lib/log";
import { exchangeCode, type OAuthClient } from "@/lib/oauth/token-client";
import { checkCallback } from "./callback";
import type { FailureReason } from "./failure-reasons";
import { admitTokenCall, type BudgetedClient } from "./install-budget";
import type { InstallAttempt } from "./pkce";
import { failureReasonFor } from "./token-response";

export type CallbackOutcome =
  | { ok: true; installs: Install[] }
  | { ok: false; reason: FailureReason; /** For the waiting reasons: how long until a new attempt can succeed. */ retryAfterMs?: number };

/**
 * Everything GET /oauth/callback does besides cookies: check the answer against this browser's attempt (no network
 * call unless it matches), exchange the code, and store every returned store in one transaction. Nothing is
 * written unless the platform issued tokens, so a replayed or forged callback cannot touch existing installs.
 * Each store's order import is enqueued in that same transaction: an install never lacks its backfill.
 */
export async function completeInstall(
  db: Db,
  input: {
    params: URLSearchParams;
    attempt: InstallAttempt | null;
    client: OAuthClient;
    /** The job engine the order imports are sent to. */
    jobs: PgBoss;
    /**
     * Given (the route always gives it), the state is spent and the budgets (lib/oauth/install-budget.ts) are
     * taken before any token call, charged to `client` (and to the returning merchant's proof it carries).
     * Tests of the exchange alone leave it out.
     */
    admission?: { client: BudgetedClient; /** The budgets' clock; the database's unless given. */ now?: Date };
    now?: number;
    ring?: TokenKeyRing;
  },
): Promise<CallbackOutcome> {
  const now = input.now ?? Date.now();
  const check = checkCallback(input.params, input.attempt, now);
  if (!check.ok) {
    log.info("install callback refused", { reason: check.reason });
    return check;
  }
  if (input.admission && input.attempt) {
    const admission = await admitTokenCall(db, {
      state: input.attempt.state,
      startedAt: input.attempt.startedAt,
      client: input.admission.client,
      now: input.admission.now,
    });
    if (!admission.ok) {
      log.warn("install callback held back", { reason: admission.reason });
      return admission;
    }
  }
  try {
    const exchange = await exchangeCode(input.client, { code: check.code, codeVerifier: check.codeVerifier });
    const installs = await db.transaction(async (tx) => {
      const saved = await saveInstalledStores(tx, exchange, { ring: input.ring });
      await enqueueBackfills(input.jobs, tx, saved.map((install) => install.storeId));
      return saved;
    });
    log.info("installed", {
      stores: installs.map((install) => install.storeId),
      installIds: installs.map((install) => install.installId),
      scopes: exchange.scopes,
    });
    return { ok: true, installs };
  } catch (error) {
    const reason = failureReasonFor(error);

    log.warn("install failed", { reason, error });
    return { ok: false, reason };
  }
}
