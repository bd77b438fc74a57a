import path from "node:path";
import { defineConfig } from "vitest/config";

/**
 * `npm run test:bundlers`: the tests that make production builds of their own (tests/build), minutes each, kept out
 * of `npm test` (vitest.config.ts). One file at a time, in order: two builds at once on two cores only take longer.
 */
export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      "server-only": path.resolve(import.meta.dirname, "tests/helpers/empty-module.ts"),
    },
  },
  test: {
    include: ["tests/build/**/*.test.ts"],
    environment: "node",
    maxWorkers: 1,
    testTimeout: 120_000,
    hookTimeout: 1_200_000,
    env: { NODE_ENV: "test" },
  },
});
