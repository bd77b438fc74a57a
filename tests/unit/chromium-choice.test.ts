import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { chooseChromium, chromiumExecutable, findChromium, type ChromiumProbe } from "@/scripts/support/chromium";

const run = promisify(execFile);
const PLAYWRIGHT_BUILD = "/home/dev/.cache/ms-playwright/chromium-1255/chrome-linux64/chrome";

function probe(present: string[], overrides: Partial<ChromiumProbe> = {}): ChromiumProbe {
  const files = new Set(present);
  return { configured: undefined, platform: "linux", playwrightPath: PLAYWRIGHT_BUILD, exists: (file) => files.has(file), ...overrides };
}

describe("which Chromium the browser tests drive", () => {
  it("takes the configured path when it exists, before every other browser", () => {
    const choice = chooseChromium(probe(["/opt/chrome/chrome", PLAYWRIGHT_BUILD, "/usr/bin/chromium"], { configured: "/opt/chrome/chrome" }));
    expect(choice).toEqual({ kind: "configured", path: "/opt/chrome/chrome" });
    expect(chromiumExecutable(choice)).toBe("/opt/chrome/chrome");
  });

  it("reports a configured path that does not exist instead of falling back or fetching", () => {
    const choice = chooseChromium(probe([PLAYWRIGHT_BUILD, "/usr/bin/chromium"], { configured: "/opt/nothing/chrome" }));
    expect(choice).toEqual({ kind: "configured-missing", path: "/opt/nothing/chrome" });
  });

  it("takes Playwright's own build when it is installed, before a system browser", () => {
    const choice = chooseChromium(probe([PLAYWRIGHT_BUILD, "/usr/bin/chromium"]));
    expect(choice).toEqual({ kind: "playwright", path: PLAYWRIGHT_BUILD });
    // Playwright launches its own build when no executable is given.
    expect(chromiumExecutable(choice)).toBeUndefined();
  });

  it.each([
    ["linux", "/usr/bin/chromium-headless-shell"],
    ["linux", "/usr/bin/chromium"],
    ["linux", "/usr/bin/chromium-browser"],
    ["linux", "/usr/bin/google-chrome-stable"],
    ["linux", "/usr/bin/google-chrome"],
    ["darwin", "/Applications/Chromium.app/Contents/MacOS/Chromium"],
    ["darwin", "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"],
  ] as const)("on %s takes the system's %s when Playwright's build is absent", (platform, file) => {
    const choice = chooseChromium(probe([file], { platform }));
    expect(choice).toEqual({ kind: "system", path: file });
    expect(chromiumExecutable(choice)).toBe(file);
  });

  it("prefers Debian's headless shell to the full Chromium for headless tests, as Playwright does with its own", () => {
    expect(chooseChromium(probe(["/usr/bin/chromium", "/usr/bin/chromium-headless-shell"]))).toEqual({ kind: "system", path: "/usr/bin/chromium-headless-shell" });
  });

  it("prefers Chromium to Chrome when both are installed", () => {
    expect(chooseChromium(probe(["/usr/bin/google-chrome", "/usr/bin/chromium"]))).toEqual({ kind: "system", path: "/usr/bin/chromium" });
  });

  it("does not take a Linux path on macOS", () => {
    expect(chooseChromium(probe(["/usr/bin/chromium"], { platform: "darwin" }))).toEqual({ kind: "fetch" });
  });

  it.each(["linux", "darwin"] as const)("on %s fetches Playwright's build when no browser is found", (platform) => {
    const choice = chooseChromium(probe([], { platform }));
    expect(choice).toEqual({ kind: "fetch" });
    expect(chromiumExecutable(choice)).toBeUndefined();
  });

  it("reads PLAYWRIGHT_CHROMIUM_PATH from the environment, an empty one counting as unset", () => {
    const saved = process.env.PLAYWRIGHT_CHROMIUM_PATH;
    try {
      process.env.PLAYWRIGHT_CHROMIUM_PATH = "/opt/nothing/chrome";
      expect(findChromium()).toEqual({ kind: "configured-missing", path: "/opt/nothing/chrome" });
      process.env.PLAYWRIGHT_CHROMIUM_PATH = "";
      expect(findChromium().kind).not.toMatch(/^configured/);
    } finally {
      if (saved === undefined) delete process.env.PLAYWRIGHT_CHROMIUM_PATH;
      else process.env.PLAYWRIGHT_CHROMIUM_PATH = saved;
    }
  });

  it("is what playwright.config.ts launches", async () => {
    const root = path.resolve(import.meta.dirname, "../..");
    const script =
      'import("./playwright.config.ts").then((m) => console.log(JSON.stringify(m.default.projects[0].use.launchOptions.executablePath ?? null)))';
    const launched = async (env: Record<string, string>) => {
      const { stdout } = await run(path.join(root, "node_modules/.bin/tsx"), ["-e", script], {
        cwd: root,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } as unknown as NodeJS.ProcessEnv,
      });
      return JSON.parse(stdout.trim().split("\n").at(-1) ?? "null") as string | null;
    };
    // Two fresh processes at once: the config decides when it loads.
    const [configured, found] = await Promise.all([launched({ PLAYWRIGHT_CHROMIUM_PATH: "/opt/chosen/chrome" }), launched({})]);
    expect(configured).toBe("/opt/chosen/chrome");
    expect(found).toBe(chromiumExecutable(findChromium()) ?? null);
    // Two tsx start-ups loading Playwright: seconds on a quiet machine, half a minute on a crowded one.
  }, 120_000);
});
