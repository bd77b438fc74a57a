/**
 * `npm run tokens:rotate`: re-encrypts every stored access token under TOKEN_ENCRYPTION_KEY.
 *
 * To rotate: put the new key in TOKEN_ENCRYPTION_KEY and the old one(s) in TOKEN_ENCRYPTION_KEYS_PREVIOUS
 * (comma-separated), deploy, run this, then drop the old keys. The app keeps working throughout: it opens tokens
 * with any configured key and seals new ones with the current key. Safe to run again; rows changed meanwhile
 * (a re-install, an uninstall) are left as they are.
 */
import { openDatabaseFromEnv } from "../lib/database/open";
import { keyRing } from "../lib/crypto/token-cipher";
import { rotateTokenKeys } from "../lib/crypto/rotate-tokens";
import { env } from "../lib/env";

async function main(): Promise<number> {
  const ring = keyRing(env.TOKEN_ENCRYPTION_KEY, env.TOKEN_ENCRYPTION_KEYS_PREVIOUS);
  const handle = await openDatabaseFromEnv({ maxConnections: 1, migrateEmbedded: true });
  if (handle.kind === "embedded") {
    // One process per embedded folder: a running app on the same folder would corrupt it.
    console.log(`Embedded database ${handle.location}: make sure the app is stopped while this runs.`);
  }
  console.log(
    `Current key ${ring.current.id}; previous keys: ${ring.previous.map((key) => key.id).join(", ") || "(none)"}.`,
  );
  try {
    const report = await rotateTokenKeys(handle.db, ring);
    console.log(`✓ Re-encrypted ${report.rotated.length} token(s) under ${ring.current.id}.`);
    if (report.skipped.length > 0) {
      console.log(`  ${report.skipped.length} changed while rotating and were left as they are: stores ${report.skipped.join(", ")}.`);
    }
    if (report.failed.length > 0) {
      console.error(`✗ ${report.failed.length} token(s) could not be opened with any configured key:`);
      for (const failure of report.failed) console.error(`  - store ${failure.storeId}: ${failure.reason}`);
      console.error("  Add the key that sealed them to TOKEN_ENCRYPTION_KEYS_PREVIOUS and run this again.");
      return 1;
    }
    return 0;
  } finally {
    await handle.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    // EnvError and database errors name what is wrong, never a key or a token.
    console.error(`✗ Token key rotation failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
