import { defineConfig } from "vitest/config";
import base, { include } from "../vitest.config.ts";

/**
 * The vitest configuration of one mutation group (tooling/scripts/mutation.ts, through tooling/stryker.config.mjs): the project's
 * own, including only the group's tests, named in MUTATION_TEST_FILES (comma-separated). Stryker then runs a static
 * mutant's tests with the mutant switched on before its module loads, which it does not when the tests are narrowed
 * with its own --testFiles (stryker-js#6144).
 */
export function mutationTestFiles(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((file) => file.trim())
    .filter(Boolean);
}

const testFiles = mutationTestFiles(process.env.MUTATION_TEST_FILES);

export default defineConfig({
  ...base,
  // One project, every file in a registry of its own: Stryker switches a mutant on per test file and reads coverage
  // per test, which a registry shared between files (vitest.config.ts's "shared" project) would blur.
  test: { ...base.test, projects: undefined, isolate: true, include: testFiles.length > 0 ? testFiles : include },
});
