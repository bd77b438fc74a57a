import type { PgBoss } from "pg-boss";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { setLogSink } from "@/lib/log";
import { completeInstall } from "@/lib/oauth/complete-install";
import type { InstallAttempt } from "@/lib/oauth/pkce";
import type { OAuthClient } from "@/lib/oauth/token-client";
import { APP_USER_AGENT } from "@/lib/platform";
import { captureLogs } from "../helpers/log-capture";

/**
 * The callback's refusals, where nothing may be written: the database handed in fails the test if anything touches
 * it. (Installs that succeed are covered against the emulator in tests/integration/install.test.ts.)
 */
const untouchable = new Proxy({} as Db, {
  get(_target, property) {
    throw new Error(`the database was touched (${String(property)}) although nothing was installed`);
  },
});

let restoreLog: () => void;
beforeEach(() => {
  restoreLog = setLogSink(() => {});
});
afterEach(() => restoreLog());

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const code = "cd".repeat(32);

describe("completeInstall refusals", () => {
  let client: OAuthClient;
  let attempt: InstallAttempt;
  // No call here gets as far as storing, so the job engine is never reached.
  const unusedJobs = new Proxy({}, { get: () => { throw new Error("the job engine was reached"); } }) as PgBoss;
  beforeEach(async () => {
    client = {
      authUrl: `http://127.0.0.1:${await closedPort()}`,
      clientId: "svcapp_client",
      clientSecret: "svcas_secret",
      redirectUri: "https://app.example.com/oauth/callback",
      userAgent: APP_USER_AGENT,
    };
    attempt = { state: "state-of-this-browser", codeVerifier: "v".repeat(43), startedAt: Date.now() };
  });

  it("refuses a forged callback before any exchange", async () => {
    const params = new URLSearchParams({ code, state: "forged" });
    expect(await completeInstall(untouchable, { params, attempt, client, jobs: unusedJobs })).toEqual({ ok: false, reason: "state_mismatch" });
  });

  it("judges the attempt's age on the clock it is given", async () => {
    const params = new URLSearchParams({ code, state: attempt.state });
    expect(await completeInstall(untouchable, { params, attempt, client, now: attempt.startedAt + 11 * 60_000, jobs: unusedJobs })).toEqual({
      ok: false,
      reason: "expired",
    });
  });

  it("tells the operator why a callback got nothing, with the reason and never the code or the client's secret", async () => {
    const { lines, entries } = await captureLogs("info", async () => {
      await completeInstall(untouchable, { params: new URLSearchParams({ code, state: "forged" }), attempt, client, jobs: unusedJobs });
      const params = new URLSearchParams({ code, state: attempt.state });
      await completeInstall(untouchable, { params, attempt, client, now: attempt.startedAt + 1_000, jobs: unusedJobs });
    });
    expect(entries).toContainEqual(expect.objectContaining({ level: "info", msg: "install callback refused", reason: "state_mismatch" }));
    expect(entries).toContainEqual(expect.objectContaining({ level: "warn", msg: "install failed", reason: "network" }));
    expect(lines.some((line) => line.includes(code) || line.includes(client.clientSecret))).toBe(false);
  });

  it("stores nothing when the token endpoint cannot be reached, and names that", async () => {
    const params = new URLSearchParams({ code, state: attempt.state });
    expect(await completeInstall(untouchable, { params, attempt, client, now: attempt.startedAt + 1_000, jobs: unusedJobs })).toEqual({
      ok: false,
      reason: "network",
    });
  });
});
