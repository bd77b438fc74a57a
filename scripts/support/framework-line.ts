/**
 * The framework's packages and the release line each may move within, for `npm run deps:check`: the latest
 * release of the line a package is pinned on, never the next major.
 */

/** The packages that move together when the framework moves (a trailing `*` matches a scope). */
export const FRAMEWORK_PATTERNS = [
  "next",
  "react",
  "react-dom",
  "@types/react",
  "@types/react-dom",
  "eslint-config-next",
  "next-intl",
  "tailwindcss",
  "@tailwindcss/*",
  "@opentelemetry/*",
  "@vercel/otel",
] as const;

export function isFramework(name: string): boolean {
  return FRAMEWORK_PATTERNS.some((pattern) => (pattern.endsWith("*") ? name.startsWith(pattern.slice(0, -1)) : name === pattern));
}

type Version = { major: number; minor: number; patch: number };

/** A plain release (`16.4.6`); `null` for a prerelease, a build tag or anything else. */
export function parseRelease(text: string): Version | null {
  const match = /^(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (!match) return null;
  return { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3]) };
}

function compare(a: Version, b: Version): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
}

/**
 * Whether `candidate` is in the same release line as `current`. From 1.0 a line is a major. Below 1.0 it is a
 * minor, and below 0.1 the release itself (npm's caret), except for OpenTelemetry's experimental packages, whose
 * 0.2xx releases are the companions of the SDK's 2.x line (0.200.0 came out with 2.0.0): they move within their
 * hundred.
 */
export function sameLine(name: string, current: Version, candidate: Version): boolean {
  if (current.major !== candidate.major) return false;
  if (current.major > 0) return true;
  if (name.startsWith("@opentelemetry/")) return Math.floor(current.minor / 100) === Math.floor(candidate.minor / 100);
  // ^0.0.x is that release alone.
  if (current.minor === 0) return candidate.minor === 0 && candidate.patch === current.patch;
  return current.minor === candidate.minor;
}

/**
 * The newest release of `current`'s line among `published`, or `current` itself when none is newer. A pin that
 * is not a plain release (a range, a tag) is given back unchanged: it is not ours to guess.
 */
export function latestInLine(name: string, current: string, published: readonly string[]): string {
  const pinned = parseRelease(current);
  if (!pinned) return current;
  let best = pinned;
  let bestText = current;
  for (const text of published) {
    const candidate = parseRelease(text);
    if (candidate && sameLine(name, pinned, candidate) && compare(candidate, best) > 0) {
      best = candidate;
      bestText = text;
    }
  }
  return bestText;
}
