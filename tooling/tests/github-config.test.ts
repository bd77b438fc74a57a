/**
 * The GitHub side of the template: every workflow passes GitHub's schema (@action-validator/cli, offline), the CI
 * workflow does what .ci/run does, and the Dependabot configuration is well formed and groups the framework.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";

const root = path.resolve(import.meta.dirname, "../..");
const workflowsDir = path.join(root, ".github", "workflows");
const validator = path.join(root, "tooling", "node_modules", ".bin", "action-validator");

function validate(file: string): { ok: boolean; output: string } {
  try {
    execFileSync(validator, [file], { encoding: "utf8", stdio: "pipe" });
    return { ok: true, output: "" };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${failed.stdout ?? ""}${failed.stderr ?? ""}` };
  }
}

const workflowFiles = readdirSync(workflowsDir).filter((name) => /\.ya?ml$/.test(name));
const scratch = mkdtempSync(path.join(os.tmpdir(), "github-config-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("GitHub workflows", () => {
  it("has the CI workflow", () => {
    expect(workflowFiles).toContain("ci.yml");
  });

  it.each(workflowFiles)("%s passes GitHub's workflow schema", (name) => {
    const result = validate(path.join(workflowsDir, name));
    expect(result.output).toBe("");
    expect(result.ok).toBe(true);
  });

  it("the validator refuses a workflow with a misspelt key, naming it", () => {
    const broken = readFileSync(path.join(workflowsDir, "ci.yml"), "utf8").replace("runs-on:", "runs_on:");
    const file = path.join(scratch, "broken.yml");
    writeFileSync(file, broken);
    const result = validate(file);
    expect(result.ok).toBe(false);
    expect(result.output).toContain("runs_on");
  });

  describe("ci.yml does what .ci/run does", () => {
    type Step = { uses?: string; run?: string; with?: Record<string, unknown>; env?: Record<string, string> };
    type Job = {
      strategy: { matrix: { include: { node: number; "test-database-url": string }[] } };
      services?: Record<string, { image: string; env?: Record<string, string>; ports?: string[] }>;
      steps: Step[];
    };
    const workflow = parse(readFileSync(path.join(workflowsDir, "ci.yml"), "utf8")) as { on: Record<string, unknown>; jobs: Record<string, Job> };
    const job = workflow.jobs.test!;
    const legs = job.strategy.matrix.include;
    const testStep = job.steps.find((step) => step.run?.includes("npm test"));

    it("runs on pushes to main and on pull requests", () => {
      expect(Object.keys(workflow.on)).toEqual(expect.arrayContaining(["push", "pull_request"]));
    });

    it("tests Node 22 on the embedded database and Node 24 against PostgreSQL", () => {
      expect(legs.map((leg) => leg.node).sort()).toEqual([22, 24]);
      expect(legs.find((leg) => leg.node === 22)!["test-database-url"]).toBe("");
      expect(legs.find((leg) => leg.node === 24)!["test-database-url"]).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:5432\/\w+$/);
    });

    it("gives the PostgreSQL leg a server with the database its URL names", () => {
      const database = new URL(legs.find((leg) => leg.node === 24)!["test-database-url"]).pathname.slice(1);
      const postgres = Object.values(job.services ?? {}).find((service) => service.image.startsWith("postgres:"));
      expect(postgres?.ports).toContain("5432:5432");
      expect(postgres?.env?.POSTGRES_DB).toBe(database);
      expect(postgres?.env?.POSTGRES_HOST_AUTH_METHOD).toBe("trust");
    });

    it("installs with npm ci on the leg's Node, then runs the whole npm test (browser tests included)", () => {
      const setupNode = job.steps.find((step) => step.uses?.startsWith("actions/setup-node@"));
      expect(setupNode?.with?.["node-version"]).toBe("${{ matrix.node }}");
      const install = job.steps.findIndex((step) => step.run?.startsWith("npm ci"));
      expect(install).toBeGreaterThan(-1);
      expect(job.steps.indexOf(testStep!)).toBeGreaterThan(install);
      // The whole suite: no flag that drops the build or the browser tests.
      expect(testStep!.run).not.toMatch(/--no-e2e|--e2e-only|test:unit/);
    });

    it("runs tooling's own tests in a job of their own, as .ci/run does in a step of its own", () => {
      const tooling = workflow.jobs.tooling!;
      const runs = tooling.steps.map((step) => step.run ?? "");
      const install = runs.findIndex((run) => /^npm ci --prefix tooling\b/.test(run));
      expect(install).toBeGreaterThan(runs.findIndex((run) => run.startsWith("npm ci --no-audit")));
      expect(runs.findIndex((run) => run === "npm test --prefix tooling")).toBeGreaterThan(install);
      const script = readFileSync(path.join(root, ".ci", "run"), "utf8");
      expect(script).toMatch(/^step "tooling tests\b/m);
      expect(script.indexOf("npm test --prefix tooling")).toBeGreaterThan(script.lastIndexOf("npm test\n"));
    });

    it("hands the leg's database URL to npm test as TEST_DATABASE_URL only when it has one", () => {
      expect(testStep!.env?.SERVER_DATABASE_URL).toBe("${{ matrix.test-database-url }}");
      const exported = (value: string) =>
        execFileSync("bash", ["--norc", "-c", testStep!.run!.replace(/^\s*npm test\s*$/m, 'echo "${TEST_DATABASE_URL-unset}"')], {
          encoding: "utf8",
          env: { PATH: process.env.PATH, SERVER_DATABASE_URL: value } as unknown as NodeJS.ProcessEnv,
        }).trim();
      expect(exported("")).toBe("unset");
      expect(exported("postgres://postgres@127.0.0.1:5432/test")).toBe("postgres://postgres@127.0.0.1:5432/test");
    });
  });
});

describe("Dependabot configuration", () => {
  type Update = {
    "package-ecosystem": string;
    directory: string;
    schedule: { interval: string };
    groups?: Record<string, { patterns: string[] }>;
  };
  const config = parse(readFileSync(path.join(root, ".github", "dependabot.yml"), "utf8")) as { version: number; updates: Update[] };
  /** The packages the manifest in `directory` ("/" or "/tooling") declares. */
  const declaredIn = (directory: string) => {
    const manifest = JSON.parse(readFileSync(path.join(root, directory, "package.json"), "utf8")) as {
      dependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
    };
    return [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.devDependencies ?? {})];
  };
  const npmUpdates = config.updates.filter((update) => update["package-ecosystem"] === "npm");
  const npm = npmUpdates.find((update) => update.directory === "/");
  const matches = (pattern: string, name: string) => (pattern.endsWith("*") ? name.startsWith(pattern.slice(0, -1)) : name === pattern);

  it("is version 2 with a valid ecosystem, directory and schedule for each update", () => {
    expect(config.version).toBe(2);
    for (const update of config.updates) {
      expect(["npm", "github-actions"]).toContain(update["package-ecosystem"]);
      expect(["daily", "weekly", "monthly"]).toContain(update.schedule.interval);
    }
    expect(config.updates.find((update) => update["package-ecosystem"] === "github-actions")?.directory).toBe("/");
    // The project's own manifest and tooling's, which the root install never reads.
    expect(npmUpdates.map((update) => update.directory).sort()).toEqual(["/", "/tooling"]);
  });

  it("updates next with react, react-dom and eslint-config-next in one group", () => {
    const groups = Object.values(npm?.groups ?? {});
    const framework = groups.filter((group) => group.patterns.includes("next"));
    expect(framework).toHaveLength(1);
    expect(framework[0]!.patterns).toEqual(expect.arrayContaining(["next", "react", "react-dom", "eslint-config-next"]));
  });

  it("has no group pattern that matches no dependency of its manifest (a renamed package would leave it dead)", () => {
    for (const update of npmUpdates) {
      const declared = declaredIn(update.directory);
      for (const [group, { patterns }] of Object.entries(update.groups ?? {})) {
        for (const pattern of patterns) {
          expect(declared.some((name) => matches(pattern, name)), `${update.directory} ${group}: ${pattern}`).toBe(true);
        }
      }
    }
  });

  it("puts each dependency in one group at most", () => {
    for (const update of npmUpdates) {
      for (const name of declaredIn(update.directory)) {
        const groups = Object.values(update.groups ?? {}).filter(({ patterns }) => patterns.some((pattern) => matches(pattern, name)));
        expect(groups.length, `${update.directory} ${name}`).toBeLessThanOrEqual(1);
      }
    }
  });
});
