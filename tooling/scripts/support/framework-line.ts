/**
 * The framework's packages and the release line each may move within, for `npm run deps:check`: the latest
 * release of the line a package is pinned on, never the next major.
 */

import semver from "semver";

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

/**
 * Whether `candidate` is in the same release line as `current`. From 1.0 a line is a major. Below 1.0 it is a
 * minor, and below 0.1 the release itself (npm's caret), except for OpenTelemetry's experimental packages, whose
 * 0.2xx releases are the companions of the SDK's 2.x line (0.200.0 came out with 2.0.0): they move within their
 * hundred. Prereleases are never in a line.
 */
export function sameLine(name: string, current: string, candidate: string): boolean {
  const a = semver.parse(current);
  const b = semver.parse(candidate);
  if (!a || !b || a.prerelease.length || b.prerelease.length || b.build.length) return false;
  if (a.major !== b.major) return false;
  if (a.major > 0) return true;
  if (name.startsWith("@opentelemetry/")) return Math.floor(a.minor / 100) === Math.floor(b.minor / 100);
  if (a.minor === 0) return b.minor === 0 && b.patch === a.patch;
  return a.minor === b.minor;
}

/** The releases of `current`'s line among `published`, not older than it, newest first. */
function lineReleases(name: string, current: string, published: readonly string[]): string[] {
  return published.filter((text) => sameLine(name, current, text) && semver.gte(text, current)).sort(semver.rcompare);
}

/**
 * The newest release of `current`'s line among `published`, or `current` itself when none is newer. A pin that
 * is not a plain release (a range, a tag) is given back unchanged: it is not ours to guess.
 */
export function latestInLine(name: string, current: string, published: readonly string[]): string {
  if (!semver.valid(current)) return current;
  return lineReleases(name, current, published)[0] ?? current;
}

export type Bump = {
  name: string;
  from: string;
  to: string;
  /** When a newer release of the line exists but another package's peer range refuses it: who, and the range. */
  heldBy?: string[];
};

/** A package's peer dependency ranges at one version, as the registry has them. */
export type PeersOf = (name: string, version: string) => Promise<Record<string, string>>;

/**
 * Each package at the newest release of its line that every other chosen package's peer range accepts (the
 * OpenTelemetry SDK, for one, names the API releases it works with). Never below the pin: a pin that a peer range
 * refuses stays, and `npm install` says so. Conservative: a package held back stays held back even if the package
 * that held it is lowered in a later round to a release whose range would have accepted more.
 */
export async function planBumps(pins: Record<string, string>, published: Record<string, readonly string[]>, peersOf: PeersOf): Promise<Bump[]> {
  const names = Object.keys(pins);
  const chosen = new Map(names.map((name) => [name, latestInLine(name, pins[name]!, published[name] ?? [])]));
  const heldBy = new Map<string, string[]>();
  // Lowering one package changes the peer ranges it brings: settle in rounds (a handful suffices in practice).
  for (let round = 0; round < 10; round++) {
    const ranges = new Map<string, { by: string; range: string }[]>();
    for (const [name, version] of chosen) {
      for (const [peer, range] of Object.entries(await peersOf(name, version))) {
        if (chosen.has(peer)) ranges.set(peer, [...(ranges.get(peer) ?? []), { by: `${name}@${version}`, range }]);
      }
    }
    let changed = false;
    for (const [name, version] of chosen) {
      const limits = ranges.get(name) ?? [];
      const accepted = (text: string) => limits.every(({ range }) => semver.satisfies(text, range));
      if (accepted(version) || !semver.valid(pins[name]!)) continue;
      const best = lineReleases(name, pins[name]!, published[name] ?? []).find(accepted) ?? pins[name]!;
      if (best !== version) {
        chosen.set(name, best);
        heldBy.set(name, limits.filter(({ range }) => !semver.satisfies(version, range)).map(({ by, range }) => `${by} wants ${range}`));
        changed = true;
      }
    }
    if (!changed) break;
  }
  return names.map((name) => {
    const held = heldBy.get(name);
    return { name, from: pins[name]!, to: chosen.get(name)!, ...(held ? { heldBy: held } : {}) };
  });
}
