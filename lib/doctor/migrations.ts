import journal from "@/db/migrations/meta/_journal.json";
import type { AppliedMigration } from "@/db/queries/health";

/**
 * The migrations this build ships, read from drizzle's journal at build time (a JSON import, so the health route
 * needs no file tracing of db/migrations in the standalone output).
 */
export type ExpectedMigration = { tag: string; when: number };

export function shippedMigrations(): ExpectedMigration[] {
  return (journal as { entries: { tag: string; when: number }[] }).entries.map((entry) => ({ tag: entry.tag, when: entry.when }));
}

export type MigrationStatus =
  | { state: "current"; applied: number }
  /** The release step (`npm run db:migrate`) has not run for these. */
  | { state: "pending"; pending: string[] }
  /** The database has migrations this build does not know: an older build runs against a newer schema. */
  | { state: "ahead"; unknown: number };

/**
 * Same rule as drizzle's migrator: a shipped migration is pending when its `when` is later than the newest
 * `created_at` recorded in the database.
 */
export function compareMigrations(shipped: ExpectedMigration[], applied: AppliedMigration[]): MigrationStatus {
  const newestApplied = applied.reduce((max, row) => Math.max(max, row.createdAt), Number.NEGATIVE_INFINITY);
  const pending = shipped.filter((migration) => migration.when > newestApplied).map((migration) => migration.tag);
  if (pending.length > 0) return { state: "pending", pending };
  const known = new Set(shipped.map((migration) => migration.when));
  const unknown = applied.filter((row) => !known.has(row.createdAt)).length;
  if (unknown > 0) return { state: "ahead", unknown };
  return { state: "current", applied: applied.length };
}
