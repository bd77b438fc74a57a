/**
 * The container image's recipe, without a Docker engine: the run stage copies exactly the list the runtime-tree test
 * runs (scripts/support/image-files.ts), runs as a user of its own, checks its health, and is built by the public
 * build command. What the copied tree does when run is tests/build/runtime-tree.test.ts (npm run test:bundlers).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { dockerCopyLines, dockerfileBuildCopies, dockerfileCommand, IMAGE_FILES, RUNTIME_SCRIPTS } from "@/scripts/support/image-files";

const root = path.resolve(import.meta.dirname, "../..");
const dockerfile = readFileSync(path.join(root, "Dockerfile"), "utf8");
/** Instructions with continuation lines joined and comments dropped. */
const instructions = dockerfile
  .replace(/\\\r?\n/g, " ")
  .split(/\r?\n/)
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith("#"));
const stages = instructions.reduce<string[][]>((all, line) => {
  if (/^FROM\s/i.test(line)) all.push([line]);
  else all.at(-1)?.push(line);
  return all;
}, []);
const runStage = stages.at(-1) ?? [];
const buildStage = stages.find((stage) => /\sAS\s+build$/i.test(stage[0] ?? "")) ?? [];

describe("Dockerfile", () => {
  it("copies from the build stage exactly the image list, in its order", () => {
    expect(dockerfileBuildCopies(dockerfile)).toEqual(dockerCopyLines());
    expect(IMAGE_FILES.length).toBeGreaterThan(0);
  });

  it("notices a COPY line the list does not have, or one missing", () => {
    const lines = dockerCopyLines();
    expect(dockerfileBuildCopies(dockerfile.replace(`${lines[1]}\n`, ""))).not.toEqual(lines);
    expect(dockerfileBuildCopies(`${dockerfile}\nCOPY --from=build /app/scripts ./scripts\n`)).not.toEqual(lines);
  });

  it("has a build stage that installs every dependency and runs the public build with the standalone output", () => {
    expect(buildStage.length).toBeGreaterThan(0);
    expect(buildStage.some((line) => /^RUN npm ci\b/.test(line))).toBe(true);
    expect(buildStage.some((line) => /^RUN NEXT_OUTPUT=standalone npm run build$/.test(line))).toBe(true);
    const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> };
    expect(manifest.scripts.build).toMatch(/^next build && tsx scripts\/build-runtime\.ts$/);
    expect(readFileSync(path.join(root, "next.config.ts"), "utf8")).toMatch(/NEXT_OUTPUT === "standalone" \? "standalone"/);
    for (const source of Object.values(RUNTIME_SCRIPTS)) expect(existsSync(path.join(root, source)), source).toBe(true);
  });

  it("runs as a user of its own, with a health check on /api/health, the web server by default", () => {
    const user = runStage.findLast((line) => /^USER\s/i.test(line));
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^USER\s+(root|0)(:|$)/i);
    // Every COPY comes before the switch: the files belong to root, the app's user only reads them.
    const lastCopy = runStage.findLastIndex((line) => /^COPY\s/i.test(line));
    expect(runStage.indexOf(user!)).toBeGreaterThan(lastCopy);
    expect(runStage.find((line) => /^HEALTHCHECK\s/i.test(line))).toMatch(/\/api\/health/);
    expect(dockerfileCommand(dockerfile, "HEALTHCHECK")[0]).toBe("node");
    expect(dockerfileCommand(dockerfile, "CMD")).toEqual(["node", "server.js"]);
    expect(runStage.find((line) => /^ENV\s/i.test(line))).toMatch(/NODE_ENV=production/);
  });

  it("keeps secrets, dependencies and build output out of the build context, and the migrations in", () => {
    const ignored = readFileSync(path.join(root, ".dockerignore"), "utf8")
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith("#"));
    expect(ignored).toEqual(expect.arrayContaining([".git", "node_modules", ".next", ".env", ".env.*", ".data"]));
    expect(ignored).toContain("!.env.example");
    // What the build needs, the migrations the standalone output carries included.
    for (const needed of ["db", "db/migrations", "app", "lib", "package.json", "package-lock.json", ".npmrc", "next.config.ts"]) {
      expect(ignored.filter((pattern) => pattern === needed || needed.startsWith(`${pattern}/`) || pattern.startsWith(needed.split("/")[0]! + "/"))).toEqual([]);
    }
  });
});
