import { globSync, readFileSync } from "node:fs";
import path from "node:path";
import { defineConfig } from "vitest/config";

export const include = ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts", "emulator/tests/**/*.test.ts"];

/**
 * Files that replace modules (vi.mock, vi.doMock, vi.resetModules) run each in a fresh module registry: a mock is
 * registry state, and a module another file loaded first would keep the real one, or this file's mock would outlive
 * it. Every other file shares its worker's registry with the files before it (`isolate: false`), which spares each
 * one importing the app, the ORM and the emulator again: the larger part of a small file's time.
 */
export function filesThatMock(root: string, patterns: string[]): string[] {
  return patterns
    .flatMap((pattern) => globSync(pattern, { cwd: root }))
    .filter((file) => /\bvi\.(?:mock|doMock|resetModules)\(/.test(readFileSync(path.join(root, file), "utf8")))
    .sort();
}

const isolated = filesThatMock(import.meta.dirname, include);

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      "server-only": path.resolve(import.meta.dirname, "tests/helpers/empty-module.ts"),
    },
  },
  test: {
    // No root `include`: a project that extends the root would add its patterns to its own (arrays are merged).
    environment: "node",
    // Two cores: embedded databases are heavy to start, so keep parallelism modest and timeouts generous.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { NODE_ENV: "test" },
    // One migrated database per run, copied by each file's createTestDatabase() (tests/helpers/database.ts).
    globalSetup: ["tests/helpers/database-template.ts"],
    // Tests run in a random order within their file so that one leaning on another's leftovers fails. The reporter
    // prints the seed ("Running tests with seed ..."); VITEST_SEED=<seed> (or --sequence.seed=<seed>) replays that
    // order. Files keep vitest's own order, longest first (from its cache, else by size), so the two workers finish
    // together rather than one starting a minute-long file when the other is done.
    sequence: {
      shuffle: { files: false, tests: true },
      seed: process.env.VITEST_SEED ? Number(process.env.VITEST_SEED) : undefined,
    },
    projects: [
      { extends: true, test: { name: "shared", include, exclude: isolated, isolate: false } },
      { extends: true, test: { name: "isolated", include: isolated, isolate: true } },
    ],
  },
});
