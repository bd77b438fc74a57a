import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { freePort } from "../../scripts/support/free-port";
import { seedPgliteDir } from "./support/pglite-template";
import { childEnv, run, stopGroup, until, type Watched } from "./support/processes";

/**
 * A client cannot choose the address its install budget is counted under, on a real production server (`next start`
 * of the build the other browser tests use, without any patched package): the connection's peer is stamped through
 * Node's diagnostics channel (lib/http/peer-stamp.ts), and every header a client sends straight to the app (its own
 * peer header, X-Forwarded-For, X-Real-IP) is ignored. 20 installs per address per ten minutes: the 21st request,
 * whatever it claims, meets the waiting page; behind a proxy the app trusts, the addresses it forwards count apart.
 * Vercel's case (its edge's own header) is tests/unit/client-address.test.ts: only its edge can prove it.
 */

// Each test starts a production server and sends its requests one by one: minutes on a loaded machine.
test.describe.configure({ mode: "serial", timeout: 900_000 });

const hex = (bytes: number) => randomBytes(bytes).toString("hex");
const APP_URL = "https://app.example.test";
/** Nothing listens there: a token call fails at once as a network error, and the server logs it as one. */
const AUTH_URL = "https://127.0.0.1:9";

type Server = { url: string; stop: () => Promise<void>; output: () => string };

/** The built server with a public APP_URL (so budgets apply) on a fresh embedded database of its own. */
async function startServer(extra: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), "client-address-"));
  const env = childEnv({
    NODE_ENV: "production",
    PORT: String(port),
    APP_URL,
    SVC_AUTH_URL: AUTH_URL,
    SVC_API_URL: "https://api.platform.example.test",
    SVC_CLIENT_ID: `svcapp_${hex(10)}`,
    SVC_CLIENT_SECRET: `svcas_${hex(24)}`,
    SVC_WEBHOOK_SECRET: hex(16),
    SESSION_SECRET: hex(24),
    TOKEN_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? ".next-test",
    PGLITE_DIR: join(dataDir, "pglite"),
    LOG_LEVEL: "warn",
    ...extra,
  });
  delete env.DATABASE_URL;
  await seedPgliteDir(join(dataDir, "pglite"));
  const server: Watched = run("npx", ["next", "start", "-p", String(port)], env, { group: true });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await stopGroup(server);
    await rm(dataDir, { recursive: true, force: true });
  };
  const healthy = await until(async () => (await fetch(`${url}/api/health`).catch(() => null))?.status === 200, 300_000);
  if (!healthy) {
    const output = server.output();
    await stop();
    expect(healthy, `server output:\n${output}`).toBe(true);
  }
  return { url, output: server.output, stop };
}

/** Where GET /install sends a client claiming `headers`: the platform's consent screen or the waiting page. */
async function install(server: Server, headers: Record<string, string>): Promise<string> {
  const response = await fetch(`${server.url}/install`, { headers, redirect: "manual" });
  expect([302, 303]).toContain(response.status);
  return response.headers.get("location") ?? "";
}

/** 21 installs, each claiming another address by every header a client could send. */
async function forgedInstalls(server: Server, forged: (i: number) => Record<string, string>): Promise<string[]> {
  const locations = [];
  for (let i = 1; i <= 21; i += 1) locations.push(await install(server, forged(i)));
  return locations;
}

/** A forged peer header as the old patched Next wrote it (an address alone): believed, it would make 21 clients. */
const everyHeader = (i: number) => ({
  "x-app-peer-address": `198.51.100.${i}`,
  "x-forwarded-for": `198.51.100.${i}`,
  "x-real-ip": `198.51.100.${i}`,
});

const waiting = `${APP_URL}/install/failed?reason=too_many_attempts&minutes=`;

test("bare next start: forged peer, X-Forwarded-For and X-Real-IP headers are the one client they came from", async () => {
  const server = await startServer({});
  try {
    const locations = await forgedInstalls(server, everyHeader);
    for (const location of locations.slice(0, 20)) expect(location).toContain(`${AUTH_URL}/oauth/apps/authorize?`);
    expect(locations[20]).toContain(waiting);
  } finally {
    await server.stop();
  }
});

test("behind one proxy: a client reaching the app around it cannot choose its address", async () => {
  const server = await startServer({ TRUST_PROXY_HOPS: "1", TRUSTED_PROXIES: "10.0.0.0/8" });
  try {
    const locations = await forgedInstalls(server, everyHeader);
    expect(locations.slice(0, 20).every((location) => location.includes("/oauth/apps/authorize?"))).toBe(true);
    expect(locations[20]).toContain(waiting);
    expect(server.output()).toContain("X-Forwarded-For arrived from a peer that is not a trusted proxy");
  } finally {
    await server.stop();
  }
});

test("behind one proxy the app trusts: the address it appends is the client, whatever the client wrote to its left", async () => {
  // This test is the proxy: its connections come from loopback.
  const server = await startServer({ TRUST_PROXY_HOPS: "1", TRUSTED_PROXIES: "127.0.0.0/8,::1" });
  try {
    const spread = await forgedInstalls(server, (i) => ({ "x-forwarded-for": `203.0.${i}.1` }));
    expect(spread.every((location) => location.includes("/oauth/apps/authorize?"))).toBe(true);
    // One client prepending a different address each time is still the one the proxy appended.
    const prepended = await forgedInstalls(server, (i) => ({ "x-forwarded-for": `198.51.100.${i}, 192.0.2.77` }));
    expect(prepended.slice(0, 20).every((location) => location.includes("/oauth/apps/authorize?"))).toBe(true);
    expect(prepended[20]).toContain(waiting);
  } finally {
    await server.stop();
  }
});

/** GET /install as a client at `address` behind the proxy: the attempt's state and the cookie that carries it. */
async function startAttempt(server: Server, address: string): Promise<{ state: string; cookie: string }> {
  const response = await fetch(`${server.url}/install`, { headers: { "x-forwarded-for": address }, redirect: "manual" });
  const location = new URL(response.headers.get("location") ?? "");
  const state = location.searchParams.get("state");
  expect(state, `held: ${location}`).toBeTruthy();
  const cookie = response.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
  return { state: state!, cookie };
}

const count = (output: string, text: string) => output.split("\n").filter((line) => line.includes(text)).length;

test("behind one proxy, 200 bogus callbacks from 200 addresses of one /64 make at most 10 token calls; a merchant elsewhere is let through", async () => {
  const server = await startServer({ TRUST_PROXY_HOPS: "1", TRUSTED_PROXIES: "127.0.0.0/8,::1" });
  try {
    // States are free: 20 per client, so the attacker collects them from ten networks, then calls back from its /64.
    const attempts = [];
    for (let i = 0; i < 200; i += 1) attempts.push(await startAttempt(server, `2001:db8:${100 + Math.floor(i / 20)}::${(i % 20) + 1}`));
    const answers = [];
    for (const [i, attempt] of attempts.entries()) {
      const response = await fetch(`${server.url}/oauth/callback?state=${attempt.state}&code=${hex(32)}`, {
        headers: { cookie: attempt.cookie, "x-forwarded-for": `2001:db8:bad:1::${(i + 1).toString(16)}` },
        redirect: "manual",
      });
      answers.push(response.headers.get("location") ?? "");
    }
    const reachedTokenEndpoint = count(server.output(), '"msg":"install failed"');
    expect(reachedTokenEndpoint).toBeGreaterThan(0);
    expect(reachedTokenEndpoint).toBeLessThanOrEqual(10);
    expect(answers.filter((location) => location.includes("reason=too_many_attempts"))).toHaveLength(200 - reachedTokenEndpoint);

    // A merchant elsewhere: sent to the consent screen, and its callback goes on to the token endpoint.
    const merchant = await startAttempt(server, "198.51.100.2");
    const before = count(server.output(), '"msg":"install failed"');
    const answer = await fetch(`${server.url}/oauth/callback?state=${merchant.state}&code=${hex(32)}`, {
      headers: { cookie: merchant.cookie, "x-forwarded-for": "198.51.100.2" },
      redirect: "manual",
    });
    expect(answer.headers.get("location")).not.toContain("too_many_attempts");
    expect(answer.headers.get("location")).not.toContain("platform_busy");
    await until(() => count(server.output(), '"msg":"install failed"') === before + 1, 10_000);
    expect(count(server.output(), '"msg":"install failed"')).toBe(before + 1);
  } finally {
    await server.stop();
  }
});
