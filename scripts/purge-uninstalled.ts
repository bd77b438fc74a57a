/**
 * `npm run data:purge`: deletes the data of stores uninstalled (or whose token was revoked) more than 30 days ago
 * (orders, items, status history, sync state, webhook event ids, the install row and the sessions' hold on it),
 * forgets webhook event ids past the same period, and deletes expired sessions.
 * A store installed again before then keeps everything. Run it daily from a scheduler.
 *
 *   npm run data:purge                 purge
 *   npm run data:purge -- --dry-run    list the stores that would be purged
 */
import { parseArgs } from "node:util";
import { openDatabaseFromEnv } from "../lib/database/open";
import { purgeUninstalledStores, RETENTION_DAYS } from "../lib/webhooks/retention";

const { values } = parseArgs({ options: { "dry-run": { type: "boolean", default: false } } });

async function main(): Promise<void> {
  const handle = await openDatabaseFromEnv({ maxConnections: 1, migrateEmbedded: true });
  if (handle.kind === "embedded") {
    // One process per embedded folder: a running app on the same folder would corrupt it.
    console.log(`Embedded database ${handle.location}: make sure the app is stopped while this runs.`);
  }
  try {
    const dryRun = values["dry-run"] ?? false;
    const result = await purgeUninstalledStores(handle.db, { dryRun });
    const cutoff = result.cutoff.toISOString();
    if (dryRun) {
      console.log(
        result.storeIds.length
          ? `Would purge ${result.storeIds.length} store(s) uninstalled or revoked before ${cutoff}: ${result.storeIds.join(", ")}.`
          : `Nothing to purge: no store uninstalled or revoked before ${cutoff} (retention ${RETENTION_DAYS} days).`,
      );
      return;
    }
    console.log(
      `✓ Purged ${result.storeIds.length} store(s) uninstalled or revoked before ${cutoff}` +
        (result.storeIds.length ? ` (${result.storeIds.join(", ")})` : "") +
        `: ${result.orders} order(s), ${result.events} webhook event id(s), ${result.sessions} expired session(s).`,
    );
  } finally {
    await handle.close();
  }
}

main().catch((error: unknown) => {
  console.error(`✗ Purge failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
