// Types of stryker-log-ignorer.mjs for tooling's TypeScript tests (the root tsconfig has no allowJs).
export const IGNORER_NAME: "log-calls";
export function isLogCall(node: unknown): boolean;
export function ignoreReason(node: { type: string }): string | undefined;
export const strykerPlugins: { kind: string; name: string }[];
