/**
 * Which Chromium the browser tests drive, decided once for `npm test` and playwright.config.ts alike, so the README's
 * two commands are the whole set-up on a fresh laptop: when no browser is found, `npm test` fetches Playwright's own.
 *
 * Order: the one PLAYWRIGHT_CHROMIUM_PATH names; Playwright's own build when it is installed (the version Playwright
 * is released and tested with); a system Chromium or Chrome (machines where Playwright cannot download its own, like
 * Debian with `apt-get install chromium`); else fetch Playwright's (`npx playwright install chromium`).
 */
import { existsSync } from "node:fs";
import { chromium } from "@playwright/test";

export type ChromiumChoice =
  | { kind: "configured"; path: string }
  | { kind: "configured-missing"; path: string }
  | { kind: "playwright"; path: string }
  | { kind: "system"; path: string }
  | { kind: "fetch" };

export type ChromiumProbe = {
  /** PLAYWRIGHT_CHROMIUM_PATH, when set and not empty. */
  configured: string | undefined;
  platform: NodeJS.Platform;
  /** Where Playwright keeps its own build (it may not be there yet). */
  playwrightPath: string;
  exists: (path: string) => boolean;
};

/**
 * Where distributions and installers put Chromium or Chrome, most specific first. On Linux the headless shell comes
 * first (Debian's `chromium-headless-shell`): it is what Playwright itself runs headless tests in, and the full
 * browser in its new headless mode cost the same browser tests a quarter more CPU (docs/testing.md). It cannot open
 * a window: for `--headed`, name a full browser in PLAYWRIGHT_CHROMIUM_PATH.
 */
export const SYSTEM_CHROMIUM_PATHS: Partial<Record<NodeJS.Platform, readonly string[]>> = {
  linux: [
    "/usr/bin/chromium-headless-shell",
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/usr/bin/google-chrome-stable",
    "/usr/bin/google-chrome",
  ],
  darwin: [
    "/Applications/Chromium.app/Contents/MacOS/Chromium",
    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
  ],
};

export function chooseChromium(probe: ChromiumProbe): ChromiumChoice {
  if (probe.configured) {
    // A path someone set on purpose is never silently replaced by another browser.
    return probe.exists(probe.configured)
      ? { kind: "configured", path: probe.configured }
      : { kind: "configured-missing", path: probe.configured };
  }
  if (probe.exists(probe.playwrightPath)) return { kind: "playwright", path: probe.playwrightPath };
  const system = (SYSTEM_CHROMIUM_PATHS[probe.platform] ?? []).find((path) => probe.exists(path));
  if (system) return { kind: "system", path: system };
  return { kind: "fetch" };
}

/** The decision on this machine. */
export function findChromium(): ChromiumChoice {
  return chooseChromium({
    configured: process.env.PLAYWRIGHT_CHROMIUM_PATH || undefined,
    platform: process.platform,
    playwrightPath: chromium.executablePath(),
    exists: existsSync,
  });
}

/**
 * The executable Playwright should launch: undefined means Playwright's own build (installed, or about to be
 * fetched by `npm test`).
 */
export function chromiumExecutable(choice: ChromiumChoice): string | undefined {
  return choice.kind === "configured" || choice.kind === "system" || choice.kind === "configured-missing" ? choice.path : undefined;
}

/** One line saying which browser runs and why, for `npm test`'s header. */
export function describeChromium(choice: ChromiumChoice): string {
  switch (choice.kind) {
    case "configured":
      return `Chromium: ${choice.path} (PLAYWRIGHT_CHROMIUM_PATH)`;
    case "configured-missing":
      return `Chromium: PLAYWRIGHT_CHROMIUM_PATH names ${choice.path}, which does not exist`;
    case "playwright":
      return `Chromium: Playwright's own build (${choice.path})`;
    case "system":
      return `Chromium: the system's ${choice.path}`;
    case "fetch":
      return "Chromium: none found (no PLAYWRIGHT_CHROMIUM_PATH, no Playwright build, no system Chromium or Chrome): fetching Playwright's";
  }
}
