/**
 * The messages the store shell hands to its client parts (ClientMessages): the error boundary's (./error.tsx).
 * The section navigation gets its labels already translated, as props. tests/unit/i18n-catalogue.test.ts fails
 * when a client component under this layout uses a key that no list handed above it holds.
 */
export const SHELL_CLIENT_KEYS = ["Errors.pageTitle", "Errors.pageMessage", "Errors.tryAgain", "Errors.reference"] as const;
