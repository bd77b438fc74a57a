import { lte } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { spentInstallStates } from "@/db/schema";

/**
 * Install `state` values already presented to the callback (their SHA-256), kept until their attempt expires. The
 * caller hashes; this module stores and compares hashes only.
 */

/** Records a state as spent. False when it already was: the callback is a replay. */
export async function spendState(db: DbOrTx, input: { stateHash: string; expiresAt: Date }): Promise<boolean> {
  const rows = await db
    .insert(spentInstallStates)
    .values(input)
    .onConflictDoNothing()
    .returning({ stateHash: spentInstallStates.stateHash });
  return rows.length > 0;
}

/** Forgets states whose attempts can no longer be answered. Returns how many. */
export async function deleteSpentStatesBefore(db: DbOrTx, now: Date): Promise<number> {
  const rows = await db.delete(spentInstallStates).where(lte(spentInstallStates.expiresAt, now)).returning({ stateHash: spentInstallStates.stateHash });
  return rows.length;
}
