import type { SyncResult } from "./orders-sync";

/** One line per store for the command and the logs. */
export function formatSyncResult(result: SyncResult): string {
  const mark = result.outcome === "synced" ? "✓" : result.outcome === "failed" ? "✗" : "·";
  const counts =
    result.outcome === "synced" || result.fetched > 0
      ? ` ${result.fetched} read, ${result.inserted} new, ${result.updated} updated`
      : "";
  return `${mark} store ${result.storeId}: ${result.outcome}${counts}${result.detail ? ` (${result.detail})` : ""}`;
}
