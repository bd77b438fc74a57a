/**
 * Which tests judge which file in `npm run test:mutation` (tooling/scripts/mutation.ts).
 *
 * Stryker runs once per group below, mutating only the group's files and running only the group's tests
 * (`--mutate <files> --testFiles <tests>`). One run over every related test (`vitest.related: true`) costs hours on
 * two cores: a mutant of code run at import ("static") reruns every test file that loads the module, and each test
 * file that opens an embedded database pays its start-up again. A file's own tests are the ones that import it and
 * assert on what it answers; files share a group when they share those tests, so one first (dry) run serves them.
 *
 * tooling/tests/mutation-targets.test.ts checks that every file of `mutate` in tooling/stryker.config.mjs is in exactly one
 * group, that every group's file is in that list, and that every named test file exists.
 */
export type MutationGroup = {
  /** Folder under reports/mutation/ holding the group's incremental cache and reports. */
  name: string;
  mutate: string[];
  testFiles: string[];
};

export const MUTATION_GROUPS: MutationGroup[] = [
  {
    name: "webhook-signature",
    mutate: ["lib/webhooks/signature.ts"],
    testFiles: ["tests/unit/webhook-signature.test.ts", "tests/unit/webhook-answers.test.ts", "tests/unit/webhook-early-refusal.test.ts"],
  },
  {
    name: "webhook-receive",
    mutate: ["lib/webhooks/receive.ts", "lib/webhooks/body.ts"],
    testFiles: [
      "tests/unit/webhook-answers.test.ts",
      "tests/integration/webhook-receive.test.ts",
      "tests/unit/webhook-early-refusal.test.ts",
      // What the receiver leaves beside its answer (log lines, spans), and follow-ups on any event.
      "tests/unit/webhook-receiver-trail.test.ts",
      "tests/integration/webhook-follow-up.test.ts",
    ],
  },
  {
    name: "token-cipher",
    mutate: ["lib/crypto/token-cipher.ts"],
    testFiles: ["tests/unit/token-cipher.test.ts", "tests/unit/installs.test.ts"],
  },
  {
    // pkce.ts's attempt lifetime is enforced (and pinned, in minutes) by the callback's tests.
    name: "oauth-attempt",
    mutate: ["lib/oauth/pkce.ts", "lib/oauth/authorize-url.ts", "lib/oauth/callback.ts"],
    testFiles: ["tests/unit/pkce.test.ts", "tests/unit/oauth-callback.test.ts"],
  },
  {
    name: "oauth-complete-install",
    mutate: ["lib/oauth/complete-install.ts"],
    testFiles: ["tests/unit/complete-install.test.ts", "tests/integration/install.test.ts", "tests/integration/install-flood.test.ts"],
  },
  {
    name: "oauth-token",
    mutate: ["lib/oauth/token-response.ts", "lib/oauth/token-client.ts", "lib/oauth/failure-reasons.ts"],
    testFiles: [
      "tests/unit/token-answers.test.ts",
      "tests/unit/token-errors.test.ts",
      "tests/unit/token-exchange.test.ts",
      "tests/unit/complete-install.test.ts",
    ],
  },
  {
    name: "session",
    mutate: ["lib/tenancy.ts", "lib/session.ts", "lib/session-policy.ts", "lib/session-lifecycle.ts"],
    testFiles: [
      "tests/unit/tenancy.test.ts",
      "tests/unit/session-policy.test.ts",
      "tests/integration/session-guard.test.ts",
      "tests/integration/sessions.test.ts",
      // The metrics a sign-in and sign-out count (their labels are part of session-lifecycle.ts).
      "tests/integration/observability-metrics.test.ts",
      // What a page's session read counts: a session found expired is counted as ended (lib/session.ts).
      "tests/integration/session-read-metrics.test.ts",
      // The races a sign-in meets (a previous session ended or replaced between its read and openSession's lock):
      // on the PostgreSQL server at 127.0.0.1:5432, skipped with the reason where none answers.
      "tests/integration/session-races.test.ts",
      // The returning merchant's proof as the routes read and keep it (the "installed before" cookie).
      "tests/integration/returning-cookie.test.ts",
    ],
  },
  {
    name: "sign-in",
    mutate: ["lib/oauth/install-attempts.ts", "lib/oauth/return-path.ts"],
    testFiles: ["tests/unit/install-attempts.test.ts", "tests/integration/session-guard.test.ts"],
  },
  {
    // The budgets' own tests with a chosen clock, not the emulator flood (install-flood.test.ts, over an hour under
    // Stryker): the flood proves the budgets hold together in the normal suite, these pin each one to the millisecond.
    name: "install-budget",
    mutate: ["lib/oauth/install-budget.ts"],
    testFiles: ["tests/integration/install-budget.test.ts"],
  },
  {
    // The returning merchant's proofs: the sealed "installed before" cookie and the session's stores.
    name: "returning-merchant",
    mutate: ["lib/oauth/returning-merchant.ts"],
    testFiles: ["tests/integration/returning-merchant.test.ts", "tests/integration/returning-cookie.test.ts"],
  },
  {
    // The client address, the trusted proxies' list and the peer stamp: unit tests, a real Node http server for the stamp.
    name: "client-address",
    mutate: ["lib/http/client-address.ts", "lib/http/cidr.ts", "lib/http/peer-stamp.ts"],
    testFiles: ["tests/unit/client-address.test.ts", "tests/unit/peer-stamp.test.ts"],
  },
  {
    name: "cross-site",
    mutate: ["lib/http/cross-site.ts"],
    testFiles: ["tests/unit/cross-site.test.ts"],
  },
  {
    // The store id every store route takes from its URL (parseStoreId), and the section registry's paths.
    name: "sections",
    mutate: ["lib/sections.ts"],
    testFiles: ["tests/unit/sections.test.ts", "tests/unit/tenancy.test.ts"],
  },
  {
    // Which sections a store's grant opens and whether the order sync may call the platform for it.
    name: "installs-scopes",
    mutate: ["lib/installs/scopes.ts"],
    testFiles: ["tests/unit/installs-scopes.test.ts", "tests/integration/scope-gaps.test.ts"],
  },
];

/** A `--mutate` entry without its optional mutation range (`lib/a.ts:3-9` is `lib/a.ts`). */
export function mutatedPath(entry: string): string {
  return entry.replace(/:\d+(?::\d+)?-\d+(?::\d+)?$/, "");
}

/**
 * The groups to run for `--mutate` entries (all groups when none are given), and the entries no group holds
 * (run once as given, with every related test, as a plain `stryker run` would).
 */
export function selectGroups(
  mutate: string[],
  groups: MutationGroup[] = MUTATION_GROUPS,
): { groups: MutationGroup[]; unmapped: string[] } {
  if (mutate.length === 0) return { groups, unmapped: [] };
  const selected = groups.filter((group) => mutate.some((entry) => group.mutate.includes(mutatedPath(entry))));
  const unmapped = mutate.filter((entry) => !groups.some((group) => group.mutate.includes(mutatedPath(entry))));
  return { groups: selected, unmapped };
}
