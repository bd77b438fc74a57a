import path from "node:path";
import { defineConfig } from "vitest/config";
import base from "../vitest.config.ts";

const root = path.resolve(import.meta.dirname, "..");

/**
 * Tooling's own tests (`npm test --prefix tooling`, or `npm run test:tooling` from the root, which installs tooling
 * first): the benches' helpers, the mutation groups, the upgrade proof's version rules and the CI workflow's lint.
 * They run from the repository's root with the project's aliases, like the app's tests, but need no database.
 */
export default defineConfig({
  ...base,
  root,
  test: { ...base.test, projects: undefined, globalSetup: [], include: ["tooling/tests/**/*.test.ts"] },
});
