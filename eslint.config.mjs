import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

/**
 * Import boundaries. lib/platform is reached only through its public entry (@/lib/platform), so its internals can
 * change freely; the app (app/, lib/, db/, components/) never imports the emulator, whose code the app must not
 * need, nor tooling/ (benchmarks, mutation testing), whose packages a default install lacks; the emulator borrows only
 * the few neutral modules both sides share. No file imports a package's internals
 * (next/dist/...): they change without notice in any release, so a template that leans on them breaks on the
 * update its users most need to take. A later block replaces an earlier one's no-restricted-imports for the files it
 * matches, so each block lists every pattern its files obey.
 */
const platformInternals = {
  group: ["@/lib/platform/*", "**/lib/platform/*", "../platform/*"],
  message: "Import the platform boundary's public entry, \"@/lib/platform\"; export what you need from lib/platform/index.ts.",
};
const emulator = {
  group: ["@/emulator/*", "**/emulator/*"],
  message: "The app must not depend on its emulator. Put what both need in a neutral module under lib/ (see lib/dev-app.ts).",
};
const tooling = {
  group: ["@/tooling/*", "**/tooling/*"],
  message: "The app must not depend on tooling/ (benchmarks, mutation testing): a default install does not have its packages.",
};
const outsideSharedModules = {
  regex: "^@/(?!lib/log$|lib/dev-app$|lib/webhook-url/)",
  message: "The emulator imports only the modules it shares with the app: lib/log, lib/dev-app, lib/webhook-url.",
};
const packageInternals = {
  group: ["next/dist/*", "*/dist/*", "@*/*/dist/*"],
  message: "Import a package's public entry points (next/link, next/navigation, ...), never its build output: it changes in any release.",
};
const restrict = (...patterns) => ({ "no-restricted-imports": ["error", { patterns: [packageInternals, ...patterns] }] });

const boundaries = [
  { files: ["**/*.{ts,tsx,mjs}"], rules: restrict(platformInternals) },
  { files: ["app/**", "lib/**", "db/**", "components/**", "proxy.ts", "instrumentation.ts"], rules: restrict(platformInternals, emulator, tooling) },
  { files: ["lib/platform/**"], rules: restrict(emulator, tooling) },
  // The platform's own unit tests exercise its internals (retry timing, envelope parsing, pacing windows).
  { files: ["tests/unit/platform-*.test.ts", "tests/integration/platform-*.ts"], rules: restrict() },
  { files: ["emulator/src/**"], rules: restrict(outsideSharedModules) },
];

const config = [
  ...nextCoreWebVitals,
  ...nextTypescript,
  {
    ignores: [".next/**", ".next-*/**", "tooling/bench/reference/.next*/**", "tooling/bench/reference/next-env.d.ts", "tooling/node_modules/**", ".data/**", "node_modules/**", "test-results/**", "playwright-report/**", ".stryker-tmp/**", "reports/**", "next-env.d.ts"],
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  ...boundaries,
];

export default config;
