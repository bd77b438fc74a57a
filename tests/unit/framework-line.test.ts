import { describe, expect, it } from "vitest";
import { FRAMEWORK_PATTERNS, isFramework, latestInLine, parseRelease } from "@/scripts/support/framework-line";

describe("the framework's packages for npm run deps:check", () => {
  it.each(["next", "react", "react-dom", "eslint-config-next", "next-intl", "tailwindcss", "@tailwindcss/postcss", "@opentelemetry/sdk-trace-node", "@vercel/otel"])(
    "%s moves with the framework",
    (name) => expect(isFramework(name)).toBe(true),
  );

  it.each(["nextjs", "react-is", "zod", "@types/node", "typescript", "eslint", "@playwright/test", "postgres"])("%s does not", (name) =>
    expect(isFramework(name)).toBe(false),
  );

  it("lists next with react, react-dom and eslint-config-next", () => {
    expect(FRAMEWORK_PATTERNS).toEqual(expect.arrayContaining(["next", "react", "react-dom", "eslint-config-next"]));
  });
});

describe("the latest release of a pinned package's line", () => {
  it("reads only plain releases", () => {
    expect(parseRelease("16.4.6")).toEqual({ major: 16, minor: 4, patch: 6 });
    expect(parseRelease("16.5.0-canary.3")).toBeNull();
    expect(parseRelease("^16.4.5")).toBeNull();
  });

  it("takes the newest release of the same major, comparing numerically, never the next major or a prerelease", () => {
    const published = ["16.4.5", "16.4.6", "16.10.0", "16.9.2", "16.11.0-canary.1", "17.0.0", "15.9.9"];
    expect(latestInLine("next", "16.4.5", published)).toBe("16.10.0");
  });

  it("keeps the pin when nothing newer is in its line", () => {
    expect(latestInLine("next", "16.4.5", ["16.4.5", "16.4.4", "17.0.0"])).toBe("16.4.5");
  });

  it("never goes backwards", () => {
    expect(latestInLine("react", "19.3.1", ["19.2.0", "19.3.0"])).toBe("19.3.1");
  });

  it("below 1.0 stays within the minor, as npm's caret does", () => {
    expect(latestInLine("server-only", "0.0.1", ["0.0.1", "0.0.2", "0.1.0"])).toBe("0.0.1");
    expect(latestInLine("drizzle-orm", "0.45.4", ["0.45.9", "0.46.0", "1.0.0"])).toBe("0.45.9");
  });

  it("moves OpenTelemetry's experimental 0.2xx packages within their hundred, the companions of the SDK's 2.x line", () => {
    const published = ["0.223.0", "0.224.1", "0.231.0", "0.300.0", "1.0.0"];
    expect(latestInLine("@opentelemetry/exporter-trace-otlp-http", "0.223.0", published)).toBe("0.231.0");
  });

  it("gives back a pin that is not a plain release unchanged", () => {
    expect(latestInLine("next", "^16.4.5", ["16.9.0"])).toBe("^16.4.5");
  });
});
