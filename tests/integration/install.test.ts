import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { findInstall, listAllInstalls } from "@/db/queries/installs";
import { installs } from "@/db/schema";
import { setStorePlan, uninstallApp } from "@/emulator/src/actions";
import { DEV_APP } from "@/lib/dev-app";
import { startEmulator } from "@/emulator/src/index";
import { setOAuthLimitsEnabled } from "@/emulator/src/oauth/limits";
import { keyRing } from "@/lib/crypto/token-cipher";
import { loadAccessToken } from "@/lib/installs/tokens";
import { completeInstall } from "@/lib/oauth/complete-install";
import { startInstallAttempt, type InstallAttempt } from "@/lib/oauth/pkce";
import { authorizeUrl, type OAuthClient } from "@/lib/oauth/token-client";
import { APP_USER_AGENT } from "@/lib/platform";
import { createTestDatabase } from "@/tests/helpers/database";
import { findBackfill } from "@/db/queries/backfills";
import { startBoss } from "@/lib/jobs/boss";
import { JOB } from "@/lib/jobs/queues";
import type { PgBoss } from "pg-boss";

/**
 * The install flow end to end below the browser: the in-process emulator's real consent screen and token endpoint,
 * the app's callback logic (completeInstall) and a real database.
 */

const APP_URL = "http://localhost:3999";
const ring = keyRing(Buffer.alloc(32, 9).toString("base64"));

let emulator: Awaited<ReturnType<typeof startEmulator>>;
let handle: DatabaseHandle;
let client: OAuthClient;
let jobs: PgBoss;

beforeAll(async () => {
  [emulator, handle] = await Promise.all([
    startEmulator({ port: 0, appUrl: APP_URL, dataFile: null, autoTick: false }),
    createTestDatabase(),
  ]);
  // A dozen consents in a few seconds would trip the approve endpoint's 10 per 10 minutes.
  setOAuthLimitsEnabled(emulator.ctx, false);
  // A sender only: no worker takes the imports, so the test sees them waiting.
  jobs = await startBoss(handle);
  client = {
    authUrl: emulator.url,
    clientId: DEV_APP.clientId,
    clientSecret: DEV_APP.clientSecret,
    redirectUri: `${APP_URL}/oauth/callback`,
    userAgent: APP_USER_AGENT,
  };
});
afterAll(async () => {
  await jobs?.stop({ graceful: false, close: true });
  await Promise.all([emulator?.close(), handle?.close()]);
});
beforeEach(async () => {
  await handle.db.delete(installs);
});

const BROWSER = { "user-agent": "Mozilla/5.0 (integration test)" };

/** What the merchant's browser does on the consent screen: sign in, tick stores, press Approve or Deny. */
async function consent(
  attemptClient: OAuthClient,
  options: { storeIds: number[]; merchantId?: number; answer?: "approve" | "deny" },
): Promise<{ attempt: InstallAttempt; callback: URLSearchParams }> {
  const { attempt, codeChallenge } = await startInstallAttempt();
  const cookie = `emu_merchant=${options.merchantId ?? 1}`;
  const page = await fetch(authorizeUrl(attemptClient, { state: attempt.state, codeChallenge }), {
    headers: { ...BROWSER, cookie },
    redirect: "manual",
  });
  expect(page.status).toBe(200);
  const html = await page.text();
  const requestId = /name="request_id" value="([^"]+)"/.exec(html)?.[1];
  expect(requestId).toBeTruthy();
  const form = new URLSearchParams({ request_id: requestId! });
  for (const storeId of options.storeIds) form.append("store_id", String(storeId));
  const answer = await fetch(`${emulator.url}/oauth/apps/${options.answer ?? "approve"}`, {
    method: "POST",
    headers: { ...BROWSER, cookie, "content-type": "application/x-www-form-urlencoded" },
    body: form,
    redirect: "manual",
  });
  expect([302, 303]).toContain(answer.status);
  const location = new URL(answer.headers.get("location")!);
  expect(location.origin + location.pathname).toBe(`${APP_URL}/oauth/callback`);
  return { attempt, callback: location.searchParams };
}

async function whoamiStatus(token: string): Promise<{ status: number; storeId?: number; installId?: number }> {
  const response = await fetch(`${emulator.url}/v1/whoami`, {
    headers: { authorization: `Bearer ${token}`, "user-agent": APP_USER_AGENT },
  });
  if (!response.ok) return { status: response.status };
  const body = (await response.json()) as { data: { store_id: number; app: { install_id: number } } };
  return { status: response.status, storeId: body.data.store_id, installId: body.data.app.install_id };
}

async function storedToken(storeId: number): Promise<string> {
  const loaded = await loadAccessToken(handle.db, storeId, ring);
  expect(loaded).not.toBeNull();
  return loaded!.token;
}

describe("install through the emulator", () => {
  it("installs on the ticked stores, each with its own working token and the granted scopes", async () => {
    const { attempt, callback } = await consent(client, { storeIds: [101, 103] });
    const outcome = await completeInstall(handle.db, { params: callback, attempt, client, ring, jobs });
    expect(outcome.ok).toBe(true);
    const rows = await listAllInstalls(handle.db);
    expect(rows.map((row) => [row.storeId, row.storeName, row.state])).toEqual([
      [101, "Amina Couture", "active"],
      [103, "Amina Kids", "active"],
    ]);
    expect(rows[0]?.scopes.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.tokenCiphertext).not.toContain("svcpk_live_");
      const whoami = await whoamiStatus(await storedToken(row.storeId));
      expect(whoami).toEqual({ status: 200, storeId: row.storeId, installId: row.installId });
      // The order import was enqueued with the install: its row and its waiting job.
      const backfill = await findBackfill(handle.db, row.storeId);
      expect(backfill).toMatchObject({ status: "running", cursor: null, pages: 0 });
      const queued = await jobs.findJobs<{ storeId: number }>(JOB.backfill, { key: String(row.storeId), queued: true });
      expect(queued.map((job) => job.data)).toEqual([{ storeId: row.storeId }]);
    }
  });

  it("a re-install replaces the token: the old one gets 401, the stored one works, the install id stays", async () => {
    const first = await consent(client, { storeIds: [101] });
    await completeInstall(handle.db, { params: first.callback, attempt: first.attempt, client, ring, jobs });
    const before = await findInstall(handle.db, 101);
    const oldToken = await storedToken(101);

    const second = await consent(client, { storeIds: [101] });
    expect((await completeInstall(handle.db, { params: second.callback, attempt: second.attempt, client, ring, jobs })).ok).toBe(true);
    const newToken = await storedToken(101);
    expect(newToken).not.toBe(oldToken);
    expect((await whoamiStatus(oldToken)).status).toBe(401);
    expect((await whoamiStatus(newToken)).status).toBe(200);
    expect((await findInstall(handle.db, 101))?.installId).toBe(before?.installId);
    expect(await listAllInstalls(handle.db)).toHaveLength(1);
  });

  it("refuses a forged state without calling the token endpoint (the code stays usable)", async () => {
    const { attempt, callback } = await consent(client, { storeIds: [102] });
    const forged = new URLSearchParams(callback);
    forged.set("state", "forged-by-someone-else");
    expect(await completeInstall(handle.db, { params: forged, attempt, client, ring, jobs })).toEqual({ ok: false, reason: "state_mismatch" });
    expect(await completeInstall(handle.db, { params: callback, attempt: null, client, ring, jobs })).toEqual({ ok: false, reason: "expired" });
    expect(await listAllInstalls(handle.db)).toEqual([]);
    // Had either refusal spent the code, this would be invalid_grant.
    expect((await completeInstall(handle.db, { params: callback, attempt, client, ring, jobs })).ok).toBe(true);
  });

  it("a replayed callback is refused and leaves the existing install working", async () => {
    const { attempt, callback } = await consent(client, { storeIds: [101] });
    await completeInstall(handle.db, { params: callback, attempt, client, ring, jobs });
    const token = await storedToken(101);
    // Even with the attempt still at hand (the route deletes it), the spent code is refused by the platform.
    expect(await completeInstall(handle.db, { params: callback, attempt, client, ring, jobs })).toEqual({ ok: false, reason: "invalid_grant" });
    expect(await storedToken(101)).toBe(token);
    expect((await whoamiStatus(token)).status).toBe(200);
  });

  it("turns a denial into the access_denied page and installs nothing", async () => {
    const { attempt, callback } = await consent(client, { storeIds: [], answer: "deny" });
    expect(callback.get("error")).toBe("access_denied");
    expect(await completeInstall(handle.db, { params: callback, attempt, client, ring, jobs })).toEqual({ ok: false, reason: "access_denied" });
    expect(await listAllInstalls(handle.db)).toEqual([]);
  });

  it("installs fewer stores than ticked when one fails the check at exchange time", async () => {
    const { attempt, callback } = await consent(client, { storeIds: [102, 103] });
    setStorePlan(emulator.ctx, 103, "free");
    try {
      const outcome = await completeInstall(handle.db, { params: callback, attempt, client, ring, jobs });
      expect(outcome.ok && outcome.installs.map((install) => install.storeId)).toEqual([102]);
    } finally {
      setStorePlan(emulator.ctx, 103, "enterprise");
    }
  });

  it("shows no_store_installed when no ticked store passes the final check", async () => {
    const { attempt, callback } = await consent(client, { storeIds: [103] });
    setStorePlan(emulator.ctx, 103, "free");
    try {
      expect(await completeInstall(handle.db, { params: callback, attempt, client, ring, jobs })).toEqual({
        ok: false,
        reason: "no_store_installed",
      });
    } finally {
      setStorePlan(emulator.ctx, 103, "enterprise");
    }
  });

  it("maps the token endpoint's client and verifier errors to their pages", async () => {
    const wrongSecret = await consent(client, { storeIds: [101] });
    const badClient = { ...client, clientSecret: "svcas_" + "0".repeat(48) };
    expect(await completeInstall(handle.db, { params: wrongSecret.callback, attempt: wrongSecret.attempt, client: badClient, ring, jobs })).toEqual({
      ok: false,
      reason: "invalid_client",
    });

    const wrongVerifier = await consent(client, { storeIds: [101] });
    const otherVerifier = { ...wrongVerifier.attempt, codeVerifier: "x".repeat(43) };
    expect(await completeInstall(handle.db, { params: wrongVerifier.callback, attempt: otherVerifier, client, ring, jobs })).toEqual({
      ok: false,
      reason: "invalid_grant",
    });
    expect(await listAllInstalls(handle.db)).toEqual([]);
  });

  it("maps an unreachable token endpoint to the network page", async () => {
    const { attempt, callback } = await consent(client, { storeIds: [101] });
    const unreachable = { ...client, authUrl: "http://127.0.0.1:9" };
    expect(await completeInstall(handle.db, { params: callback, attempt, client: unreachable, ring, jobs })).toEqual({
      ok: false,
      reason: "network",
    });
  });

  it("after an uninstall in the platform, installing again makes the store work again", async () => {
    const first = await consent(client, { storeIds: [101] });
    await completeInstall(handle.db, { params: first.callback, attempt: first.attempt, client, ring, jobs });
    const oldToken = await storedToken(101);
    uninstallApp(emulator.ctx, 101);
    expect((await whoamiStatus(oldToken)).status).toBe(401);

    const again = await consent(client, { storeIds: [101] });
    expect((await completeInstall(handle.db, { params: again.callback, attempt: again.attempt, client, ring, jobs })).ok).toBe(true);
    expect((await whoamiStatus(await storedToken(101))).status).toBe(200);
  });
});
