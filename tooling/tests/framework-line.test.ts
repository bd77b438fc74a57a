import { describe, expect, it } from "vitest";
import { FRAMEWORK_PATTERNS, isFramework, latestInLine, planBumps, type PeersOf } from "@/tooling/scripts/support/framework-line";

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

describe("the versions deps:check installs together", () => {
  /** Peer ranges by "name@version"; a version not listed has none. */
  const peers =
    (table: Record<string, Record<string, string>>): PeersOf =>
    async (name, version) =>
      table[`${name}@${version}`] ?? {};

  it("takes the newest of each line when every peer range accepts it", async () => {
    const bumps = await planBumps(
      { next: "16.4.5", react: "19.3.1" },
      { next: ["16.4.5", "16.4.6", "17.0.0"], react: ["19.3.1", "19.4.0", "20.0.0"] },
      peers({ "next@16.4.6": { react: "^18.2.0 || ^19.0.0" } }),
    );
    expect(bumps).toEqual([
      { name: "next", from: "16.4.5", to: "16.4.6" },
      { name: "react", from: "19.3.1", to: "19.4.0" },
    ]);
  });

  it("holds a package at the newest release another's peer range accepts, and says who holds it", async () => {
    const bumps = await planBumps(
      { "@opentelemetry/api": "1.9.1", "@opentelemetry/resources": "2.12.0" },
      { "@opentelemetry/api": ["1.9.0", "1.9.1", "1.9.2", "1.10.0"], "@opentelemetry/resources": ["2.12.0", "2.12.1"] },
      peers({ "@opentelemetry/resources@2.12.1": { "@opentelemetry/api": ">=1.3.0 <1.10.0" } }),
    );
    expect(bumps).toEqual([
      { name: "@opentelemetry/api", from: "1.9.1", to: "1.9.2", heldBy: ["@opentelemetry/resources@2.12.1 wants >=1.3.0 <1.10.0"] },
      { name: "@opentelemetry/resources", from: "2.12.0", to: "2.12.1" },
    ]);
  });

  it("keeps what one refuses out even when another accepts it, and moves the rest", async () => {
    // sdk 2.1 accepts any api and needs core 2.1; core 2.1 refuses api 1.10: api stays, core and sdk move.
    const bumps = await planBumps(
      { api: "1.9.0", core: "2.0.0", sdk: "2.0.0" },
      { api: ["1.9.0", "1.10.0"], core: ["2.0.0", "2.1.0"], sdk: ["2.0.0", "2.1.0"] },
      peers({
        "core@2.1.0": { api: "<1.10.0" },
        "sdk@2.1.0": { core: "2.1.0", api: "*" },
      }),
    );
    expect(bumps.map(({ name, to }) => `${name}@${to}`)).toEqual(["api@1.9.0", "core@2.1.0", "sdk@2.1.0"]);
  });

  it("never goes below the pin, even when a peer range refuses it: npm install will say so", async () => {
    const bumps = await planBumps(
      { api: "1.10.0", sdk: "2.0.0" },
      { api: ["1.9.0", "1.10.0"], sdk: ["2.0.0"] },
      peers({ "sdk@2.0.0": { api: "<1.10.0" } }),
    );
    expect(bumps.find((bump) => bump.name === "api")?.to).toBe("1.10.0");
  });

  it("ignores peer ranges on packages outside the framework", async () => {
    const bumps = await planBumps({ "eslint-config-next": "16.4.5" }, { "eslint-config-next": ["16.4.6"] }, peers({ "eslint-config-next@16.4.6": { eslint: ">=10" } }));
    expect(bumps[0]?.to).toBe("16.4.6");
  });
});
