import { ENV_VARIABLE_LIST, EnvError, parseEnv, type Env, type RawEnv } from "@/lib/env";
import type { CheckResult } from "./types";

export type { RawEnv } from "@/lib/env";

function fixFor(name: string): string | undefined {
  return ENV_VARIABLE_LIST.find(([candidate]) => candidate === name)?.[1].fix;
}

/**
 * One line per variable, judged exactly as production judges it at start (parseEnv in production: no defaults, no
 * published development value, https to the platform), so the doctor and the server never disagree. Required
 * variables always get a line, optional ones when set, and any variable with a problem.
 * Returns the parsed environment when every variable is well-formed, so later checks can use it.
 */
export function checkVariables(raw: RawEnv): { checks: CheckResult[]; env: Env | null } {
  const production: RawEnv = { ...raw, NODE_ENV: "production" };
  let env: Env | null = null;
  let problems: { variable: string; message: string }[] = [];
  try {
    env = parseEnv(production);
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    problems = error.problems;
  }

  const present = (name: string) => (production[name] ?? "") !== "";
  const problemOf = (name: string) => problems.find((candidate) => candidate.variable === name);
  const names = ENV_VARIABLE_LIST.filter(([name, { setting }]) => {
    if (setting === "required") return true;
    return (setting === "optional" && present(name)) || problemOf(name) !== undefined;
  }).map(([name]) => name as string);
  // The schema names every variable it judges; "(environment)" stands for a problem with no variable.
  for (const problem of problems) if (!names.includes(problem.variable)) names.push(problem.variable);

  const checks = names.map((name): CheckResult => {
    const id = `env.${name}`;
    const problem = problemOf(name);
    if (problem) return { id, title: name, status: "fail", detail: problem.message, fix: fixFor(name) };
    return { id, title: name, status: "pass", detail: present(name) ? "set and well-formed" : "well-formed" };
  });
  return { checks, env };
}
