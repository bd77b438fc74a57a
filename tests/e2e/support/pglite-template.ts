import { cp } from "node:fs/promises";

/**
 * The embedded database an app of the browser tests starts on. Most of a fresh PGlite's cost is its initdb, inside
 * WebAssembly (about 2 s of CPU); `npm test` makes one folder migrated as a release is (tables, then the job engine)
 * before the browser tests and names it in E2E_PGLITE_TEMPLATE, and each app that would have started on an empty
 * folder gets a copy of it instead: the suite's own apps (scripts/test.ts) and the specs that start one of their own.
 * Without the variable (`npx playwright test` run directly) nothing is copied and the app creates its database, as a
 * first start does.
 */
export const PGLITE_TEMPLATE_VAR = "E2E_PGLITE_TEMPLATE";

/** Copies the migrated template into `folder` (which must not exist yet) when there is one; says whether it did. */
export async function seedPgliteDir(folder: string, env: Readonly<Record<string, string | undefined>> = process.env): Promise<boolean> {
  const template = env[PGLITE_TEMPLATE_VAR];
  if (!template) return false;
  // errorOnExist: a folder already there holds another database, which a copy over it would corrupt.
  await cp(template, folder, { recursive: true, errorOnExist: true, force: false });
  return true;
}
