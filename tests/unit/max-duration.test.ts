import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DRAIN_MAX_DURATION_SECONDS } from "@/lib/jobs/request-driven";

/**
 * A serverless host stops a function at its time limit, and work after the answer (Next's after()) runs inside it:
 * every route and page that starts such work declares `maxDuration`, so the limit is the one the job drain counts
 * on (its lease and its deadline), not a plan's default. Pages inherit a layout's; route handlers do not.
 */
const APP = "app";
/** Calls that put work after the answer: directly, or through the session lookup (lib/session.ts afterSessionRead). */
const AFTER_ANSWER = /\b(after|currentSession|requireStore|resolveStoreAccess|workJobsAfterResponse|drainAfterResponse)\(/;
const DECLARED = /^export const maxDuration = (\d+);$/m;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : /\.(ts|tsx)$/.test(entry.name) ? [full] : [];
  });
}

function declared(file: string): number | null {
  try {
    const found = DECLARED.exec(readFileSync(file, "utf8"));
    return found ? Number(found[1]) : null;
  } catch {
    return null;
  }
}

/** The limit a file's work runs under: its own (a route, a page, a layout), else the nearest layout's above it. */
function limitOf(file: string): number | null {
  const own = /\/(page|layout|route)\.tsx?$/.test(file) ? declared(file) : null;
  if (own !== null || /\/route\.ts$/.test(file)) return own;
  for (let dir = path.dirname(file); dir.startsWith(APP); dir = path.dirname(dir)) {
    const layout = declared(path.join(dir, "layout.tsx"));
    if (layout !== null) return layout;
  }
  return null;
}

describe("maxDuration where work runs after the answer", () => {
  const starters = filesUnder(APP).filter((file) => AFTER_ANSWER.test(readFileSync(file, "utf8")));

  it("finds the entries it must hold (the store pages, the retry action, the callback, the cron route)", () => {
    for (const file of ["app/stores/[storeId]/_components/import-progress.tsx", "app/stores/[storeId]/import-actions.ts", "app/oauth/callback/route.ts", "app/api/cron/jobs/route.ts"]) {
      expect(starters).toContain(file);
    }
  });

  it.each(filesUnder(APP).filter((file) => AFTER_ANSWER.test(readFileSync(file, "utf8"))))("%s runs under a declared limit of the drain's", (file) => {
    expect(limitOf(file)).toBe(DRAIN_MAX_DURATION_SECONDS);
  });
});
