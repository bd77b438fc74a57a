import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      "server-only": path.resolve(import.meta.dirname, "tests/helpers/empty-module.ts"),
    },
  },
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts", "emulator/tests/**/*.test.ts"],
    environment: "node",
    // One migrated database per run, copied by each file's createTestDatabase() (tests/helpers/database.ts).
    globalSetup: ["tests/helpers/database-template.ts"],
    // Two cores: embedded databases are heavy to start, so keep parallelism modest and timeouts generous.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { NODE_ENV: "test" },
    // Tests run in a random order so that one leaning on another's leftovers fails. The reporter prints the seed
    // ("Running tests with seed ..."); VITEST_SEED=<seed> (or --sequence.seed=<seed>) replays that order.
    sequence: { shuffle: true, seed: process.env.VITEST_SEED ? Number(process.env.VITEST_SEED) : undefined },
  },
});
