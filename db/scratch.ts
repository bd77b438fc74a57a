import { randomBytes } from "node:crypto";
import postgres from "postgres";

export type ScratchDatabase = { name: string; url: string; drop(): Promise<void> };

/**
 * A new, empty database on a PostgreSQL server, for one test file, one browser-test run or one benchmark, so runs
 * never see each other's rows; `template` names a database to copy (nobody may be connected to it). `drop()` removes
 * it (forcing out connections a crashed run left behind).
 */
export async function createScratchDatabase(
  serverUrl: string,
  prefix: string,
  options: { template?: string } = {},
): Promise<ScratchDatabase> {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    // A copy of a migrated template is a file copy on the server, where migrating afresh is hundreds of statements.
    await admin.unsafe(options.template ? `create database ${name} template ${options.template}` : `create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const dropper = postgres(serverUrl, { max: 1, onnotice: () => {} });
      try {
        await dropper.unsafe(`drop database if exists ${name} with (force)`);
      } finally {
        await dropper.end();
      }
    },
  };
}
