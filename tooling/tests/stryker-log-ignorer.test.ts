import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parse } from "@babel/parser";
import { describe, expect, it } from "vitest";
import { ignoreReason, strykerPlugins } from "../stryker-log-ignorer.mjs";

type Node = { type: string; [key: string]: unknown };

/** Every node of `code` (parsed as Stryker's instrumenter parses TypeScript) that the ignorer leaves out, as source text. */
function ignored(code: string): string[] {
  const file = parse(code, { sourceType: "module", plugins: ["typescript"], allowReturnOutsideFunction: true });
  const found: string[] = [];
  const visit = (value: unknown) => {
    if (!value || typeof value !== "object") return;
    if (Array.isArray(value)) return value.forEach(visit);
    const node = value as Node & { start?: number; end?: number };
    if (typeof node.type === "string" && ignoreReason(node as never)) {
      found.push(code.slice(node.start, node.end));
      return; // Stryker skips a node's children with it.
    }
    for (const [key, child] of Object.entries(node)) if (!["loc", "extra", "leadingComments", "trailingComments"].includes(key)) visit(child);
  };
  visit(file.program);
  return found;
}

describe("the log-call ignorer (tooling/stryker-log-ignorer.mjs)", () => {
  it("is a StrykerJS ignore plugin named as tooling/stryker.config.mjs's ignorers say", async () => {
    const url = pathToFileURL(path.join(import.meta.dirname, "..", "stryker.config.mjs")).href;
    const { default: config } = (await import(url)) as { default: { ignorers: string[]; plugins: string[] } };
    expect(strykerPlugins.map((plugin) => [plugin.kind, plugin.name])).toEqual([["Ignore", "log-calls"]]);
    expect(config.ignorers).toEqual(["log-calls"]);
    expect(config.plugins.some((plugin) => plugin.endsWith(path.join("tooling", "stryker-log-ignorer.mjs")))).toBe(true);
  });

  it("ignores calls of a logger's level and context methods, with their arguments", () => {
    const code = [
      'log.warn("install failed", { reason, error });',
      'eventLogger.debug("webhook applied", { effect: result.effect });',
      "const logger = (deps.logger ?? rootLogger).with(() => ({ deliveryId: deliveryId ?? undefined }));",
      'context.logger.error("x", { error: error instanceof Error ? error.message.slice(0, 300) : "unknown error" });',
      'log.with({ storeId }).info("polled");',
    ].join("\n");
    // A statement that is only a log call is left out whole: Stryker's CallExpression mutator would remove it.
    expect(ignored(code)).toEqual([
      'log.warn("install failed", { reason, error });',
      'eventLogger.debug("webhook applied", { effect: result.effect });',
      "(deps.logger ?? rootLogger).with(() => ({ deliveryId: deliveryId ?? undefined }))",
      'context.logger.error("x", { error: error instanceof Error ? error.message.slice(0, 300) : "unknown error" });',
      'log.with({ storeId }).info("polled");',
    ]);
  });

  it("ignores a callback that only logs, and an if whose only effect is a log line", () => {
    const code = [
      'await work.catch((error: unknown) => log.warn("session bookkeeping failed", { action, error }));',
      'if (input.eventHeader && input.eventHeader !== event.event) {\n  eventLogger.warn("differs", { header: input.eventHeader.slice(0, 100) });\n}',
    ].join("\n");
    expect(ignored(code)).toEqual([
      '(error: unknown) => log.warn("session bookkeeping failed", { action, error })',
      'if (input.eventHeader && input.eventHeader !== event.event) {\n  eventLogger.warn("differs", { header: input.eventHeader.slice(0, 100) });\n}',
    ]);
  });

  it("keeps everything that is not only a log line: other calls, branches that act, conditions that act, answers", () => {
    const code = [
      'console.warn("not our logger");',
      "catalog.error(problem);",
      'if (!check.ok) {\n  logger.warn("refused", { reason: check.reason });\n  return outcome(401, "invalid_signature");\n}',
      'if (!warned.stranger && forwardedByStranger(headers)) {\n  warned.stranger = true;\n  log.warn("stranger");\n}',
      'if (claim(event)) log.info("claimed");',
      'if (slow) log.warn("slow"); else log.info("fast");',
      'const problem = error instanceof Error ? error.message : "unknown";',
    ].join("\n");
    expect(ignored(code)).toEqual(['logger.warn("refused", { reason: check.reason });', 'log.warn("stranger");', 'log.info("claimed");', 'log.warn("slow");', 'log.info("fast");']);
  });

  it("leaves at most 5 Stryker disable comments in app/, lib/, db/ and components/, each with its reason, none on a log line", () => {
    const root = path.resolve(import.meta.dirname, "../..");
    const comments = ["app", "lib", "db", "components"]
      .flatMap((folder) => readdirSync(path.join(root, folder), { recursive: true, encoding: "utf8" }).map((file) => path.join(folder, file)))
      .filter((file) => /\.tsx?$/.test(file))
      .flatMap((file) => {
        const lines = readFileSync(path.join(root, file), "utf8").split("\n");
        return lines.flatMap((line, index) => {
          if (!line.includes("Stryker disable")) return [];
          const next = lines.slice(index + 1).find((candidate) => !candidate.trim().startsWith("//")) ?? "";
          return [{ where: `${file}:${index + 1}`, line, next }];
        });
      });
    expect(comments.length).toBeLessThanOrEqual(5);
    for (const { where, line, next } of comments) {
      expect(line, where).toMatch(/Stryker disable next-line \w+(,\w+)*: equivalent\b.{20,}/);
      expect(/\b(?:log|logger|\w+Logger)\.(?:debug|info|warn|error|with)\(/.test(next), where).toBe(false);
    }
  });
});
