import { expect, test } from "@playwright/test";
import { freePort } from "../../scripts/support/free-port";
import { e2eAppEnv } from "./support/app-env";
import { run, stopGroup } from "./support/processes";

/**
 * The production server refuses to start with a broken environment, naming every bad variable in one message and
 * never printing a value. Runs the same build the other browser tests use, on a port of its own.
 */
/** Starts the built server and waits for it to exit (null: still running after 45 s, then stopped with all it started). */
async function startServer(env: NodeJS.ProcessEnv): Promise<{ exitCode: number | null; output: string }> {
  const port = String(await freePort());
  // A process group of its own: `npx next start` is npx, then next, then the server it forks.
  const server = run("npx", ["next", "start", "-p", port], { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env, PORT: port }, { group: true });
  const exitCode = await Promise.race([server.exited, new Promise<"running">((resolve) => setTimeout(() => resolve("running"), 45_000))]);
  if (exitCode === "running") {
    await stopGroup(server);
    return { exitCode: null, output: server.output() };
  }
  return { exitCode, output: server.output() };
}

test("next start stops at once, naming each missing or malformed variable", async () => {
  const env: Record<string, string> = { ...e2eAppEnv() };
  delete env.SVC_CLIENT_ID;
  env.TOKEN_ENCRYPTION_KEY = "dG9vLXNob3J0";
  env.SVC_CLIENT_SECRET = "svcas_not-the-right-shape-but-secret";

  const { exitCode, output } = await startServer({ ...env, NODE_ENV: "production" });

  expect(exitCode, `server output:\n${output}`).toBe(1);
  expect(output).toContain("SVC_CLIENT_ID: missing");
  expect(output).toContain("TOKEN_ENCRYPTION_KEY: must be 32 random bytes");
  expect(output).toContain("SVC_CLIENT_SECRET: must be svcas_ followed by 48 hex characters");
  expect(output).not.toContain("svcas_not-the-right-shape-but-secret");
  expect(output).not.toContain("dG9vLXNob3J0");
});

/**
 * Fail closed: a production build started with NODE_ENV=development (one line away on many hosts) must not fall
 * back to the development secrets this repository publishes, nor accept them when set. It refuses to start and names
 * each one.
 */
test("a production build refuses the published development secrets, whatever NODE_ENV says", async () => {
  const env: Record<string, string> = {
    ...e2eAppEnv(),
    SESSION_SECRET: "development-only-session-secret-not-for-production",
    TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
  };
  for (const nodeEnv of ["development", "production"] as const) {
    const { exitCode, output } = await startServer({ ...env, NODE_ENV: nodeEnv });

    expect(exitCode, `NODE_ENV=${nodeEnv}, server output:\n${output}`).toBe(1);
    expect(output).toContain("SESSION_SECRET: is the template's public development value");
    expect(output).toContain("TOKEN_ENCRYPTION_KEY: is the template's public development value");
    expect(output).not.toContain(env.SESSION_SECRET);
    expect(output).not.toContain(env.TOKEN_ENCRYPTION_KEY);
  }
});
