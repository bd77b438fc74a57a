import { defineConfig } from "vitest/config";
import base from "./vitest.config";

/**
 * `npm run test:bundlers`: the tests that make production builds of their own (tests/build), minutes each, kept out
 * of `npm test`. One file at a time, in order: two builds at once on two cores only take longer.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ["tests/build/**/*.test.ts"],
    maxWorkers: 1,
    testTimeout: 120_000,
    sequence: { shuffle: false },
  },
});
