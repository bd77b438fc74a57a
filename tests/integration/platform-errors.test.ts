import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { findInstall } from "@/db/queries/installs";
import { PlatformError } from "@/lib/platform";
import { databaseKind } from "../helpers/database";
import { startHarness, type Harness } from "./platform-harness";

const STORE = 101;

async function failure(promise: Promise<unknown>): Promise<PlatformError> {
  const outcome = await promise.then(
    () => null,
    (error: unknown) => error,
  );
  if (!(outcome instanceof PlatformError)) throw new Error(`expected a PlatformError, got ${String(outcome)}`);
  return outcome;
}

/**
 * The db with `beforeWrite` run just before each transaction opens. An install's state is recorded in a transaction
 * that locks its row (lib/installs/record-state.ts), so that is the last moment at which another request can change
 * the row under a write the client has already decided on without waiting for the lock.
 */
function interleavedBeforeInstallWrites(db: Db, beforeWrite: () => Promise<void>): Db {
  const interleaved = Object.create(db) as Db;
  interleaved.transaction = ((...args: Parameters<Db["transaction"]>) => beforeWrite().then(() => db.transaction(...args))) as Db["transaction"];
  return interleaved;
}

describe(`platform errors, retries and install states (${databaseKind()})`, () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(async () => {
    h.emulator.control.reset();
    h.sent.length = 0;
    h.slept.length = 0;
    h.logLines.length = 0;
    await h.db.execute(sql`delete from rate_buckets`);
    await h.db.execute(sql`delete from installs`);
    await h.install(STORE);
  });

  describe("retries", () => {
    it("waits Retry-After seconds after a 429, then succeeds", async () => {
      await h.faults([{ kind: "status", status: 429, retryAfter: 2, times: 1 }]);
      // Pinned 20 s into a minute: a Retry-After reaching past the minute would also (rightly) make pacing wait for
      // the next one, and with recorded, skipped sleeps that wait would spin until the wall clock got there.
      const twentySecondsIntoAMinute = (Math.floor(Date.now() / 60_000) + 5) * 60_000 + 20_000;
      const me = await h.client(STORE, { now: () => twentySecondsIntoAMinute }).whoami();
      expect(me.storeId).toBe(STORE);
      expect(h.sent.map((request) => request.status)).toEqual([429, 200]);
      expect(h.slept).toEqual([2_000]);
    });

    it("retries a 502 and a 500 with backoff, then succeeds", async () => {
      await h.faults([
        { kind: "status", status: 502, times: 1 },
        { kind: "status", status: 500, times: 1 },
      ]);
      await h.client(STORE).whoami();
      expect(h.sent.map((request) => request.status)).toEqual([502, 500, 200]);
      expect(h.slept).toHaveLength(2);
      expect(h.slept[1]!).toBeGreaterThanOrEqual(h.slept[0]! / 2);
    });

    it("gives up after maxAttempts with a retryable error that counts its attempts", async () => {
      await h.faults([{ kind: "status", status: 503, times: 5 }]);
      const error = await failure(h.client(STORE).whoami());
      expect(error).toMatchObject({ status: 503, attempts: 3 });
      expect(error.isRetryable).toBe(true);
      expect(h.sent).toHaveLength(3);
    });

    it("retries a dropped connection and a timed-out one", async () => {
      await h.faults([{ kind: "drop", times: 1 }]);
      await h.client(STORE).whoami();
      expect(h.sent).toHaveLength(2);

      h.sent.length = 0;
      await h.faults([{ kind: "slow", delayMs: 1_500, times: 1 }]);
      await h.client(STORE, { timeoutMs: 300 }).whoami();
      expect(h.sent).toHaveLength(2);
    });

    it("a network failure that persists is a PlatformError of kind network", async () => {
      await h.faults([{ kind: "drop", times: 3 }]);
      const error = await failure(h.client(STORE).whoami());
      expect(error).toMatchObject({ kind: "network", code: "network_error", status: null, attempts: 3 });
    });

    it("a write whose answer is lost after the platform committed it is retried with the same key and replayed: one category", async () => {
      await h.faults([{ kind: "commit-then-drop", method: "POST", pathPrefix: "/v1/categories", times: 1 }]);
      const created = await h.client(STORE).categories.create({ name: "Lost answer" });
      const posts = h.sent.filter((request) => request.method === "POST");
      expect(posts).toHaveLength(2);
      expect(posts[0]?.status).toBeNull();
      expect(posts[1]?.headers.get("idempotency-key")).toBe(posts[0]?.headers.get("idempotency-key"));
      expect(posts[1]?.body).toBe(posts[0]?.body);
      const stored = h.emulator.ctx.state.categories.filter((category) => category.storeId === STORE && category.name === "Lost answer");
      expect(stored).toHaveLength(1);
      expect(created.id).toBe(stored[0]?.id);
    });

    it("the replayed answer is flagged as such", async () => {
      await h.faults([{ kind: "commit-then-drop", method: "POST", times: 1 }]);
      const response = await h.client(STORE).request("POST", "/v1/categories", { body: { name: "Replay flag" } });
      expect(response.replayed).toBe(true);
      expect(response.attempts).toBe(2);
    });
  });

  describe("errors that are never retried", () => {
    it("402 quota_exceeded", async () => {
      h.emulator.ctx.state.stores.find((store) => store.id === STORE)!.monthlyQuota = 0;
      const error = await failure(h.client(STORE).whoami());
      expect(error).toMatchObject({ status: 402, code: "quota_exceeded", attempts: 1 });
      expect(error.isNoCreditOrQuota).toBe(true);
      expect(error.isRetryable).toBe(false);
      expect(h.sent).toHaveLength(1);
    });

    it("404 not_found", async () => {
      const error = await failure(h.client(STORE).categories.get(987_654));
      expect(error).toMatchObject({ status: 404, code: "not_found", attempts: 1 });
      expect(error.requestId).toBeTruthy();
      const line = JSON.parse(h.logLines.at(-1)!) as Record<string, unknown>;
      expect(line).toMatchObject({ level: "warn", msg: "platform call failed", status: 404, errorCode: "not_found", requestId: error.requestId });
    });

    it("422 validation_error with field details", async () => {
      const error = await failure(h.client(STORE).categories.create({ name: "x".repeat(500) }));
      expect(error).toMatchObject({ status: 422, code: "validation_error", attempts: 1 });
      expect(error.isValidation).toBe(true);
      expect(Object.keys(error.fieldErrors)).toContain("name");
    });

    it("422 invalid_parent", async () => {
      const client = h.client(STORE);
      const tree = await client.categories.tree();
      const withChild = tree.find((category) => category.children.length > 0)!;
      const error = await failure(client.categories.create({ name: "Grandchild", parentId: withChild.children[0]!.id }));
      expect(error).toMatchObject({ status: 422, code: "invalid_parent" });
      expect(error.isValidation).toBe(true);
    });

    it("409 category_not_empty", async () => {
      const client = h.client(STORE);
      const withChild = (await client.categories.tree()).find((category) => category.children.length > 0)!;
      const error = await failure(client.categories.delete(withChild.id));
      expect(error).toMatchObject({ status: 409, code: "category_not_empty", attempts: 1 });
    });

    it("422 idempotency_key_reuse when a key comes back with another body", async () => {
      const client = h.client(STORE);
      await client.categories.create({ name: "First body" }, { idempotencyKey: "form:reuse" });
      const error = await failure(client.categories.create({ name: "Second body" }, { idempotencyKey: "form:reuse" }));
      expect(error.code).toBe("idempotency_key_reuse");
    });

    it("403 missing scope", async () => {
      await h.db.execute(sql`delete from installs`);
      await h.install(STORE, ["products:read"]);
      const error = await failure(h.client(STORE).orders.list());
      expect(error).toMatchObject({ status: 403, code: "forbidden", attempts: 1 });
      expect(error.isMissingScope).toBe(true);
      expect((await findInstall(h.db, STORE))?.state).toBe("active");
    });
  });

  describe("install states", () => {
    it("a 401 marks the install revoked, destroys the token and stops using it", async () => {
      const client = h.client(STORE);
      await client.whoami();
      h.emulator.control.uninstall(STORE);
      const error = await failure(client.whoami());
      expect(error).toMatchObject({ status: 401, attempts: 1 });
      expect(error.needsReinstall).toBe(true);
      const install = await findInstall(h.db, STORE);
      expect(install?.state).toBe("revoked");
      expect(install?.tokenCiphertext).toBeNull();

      const sentBefore = h.sent.length;
      for (const fresh of [client, h.client(STORE)]) {
        const refused = await failure(fresh.whoami());
        expect(refused).toMatchObject({ kind: "local", code: "install_inactive" });
        expect(refused.needsReinstall).toBe(true);
      }
      expect(h.sent).toHaveLength(sentBefore);
    });

    it("a 401 for an old token does not destroy the token of an install made meanwhile", async () => {
      const stale = h.client(STORE);
      await stale.whoami();
      await h.install(STORE); // the flow run again: new token stored, the old one revoked at once
      await failure(stale.whoami());
      const install = await findInstall(h.db, STORE);
      expect(install?.state).toBe("active");
      expect(install?.tokenCiphertext).not.toBeNull();
      await expect(h.client(STORE).whoami()).resolves.toMatchObject({ storeId: STORE });
    });

    it("a re-install landing between a 401 and its record keeps the new token", async () => {
      let reinstall: (() => Promise<unknown>) | null = () => h.install(STORE);
      // Pacing opens transactions too: the re-install waits until the refused call has gone out.
      let sentAtUninstall = Number.POSITIVE_INFINITY;
      const client = h.client(STORE, {
        db: interleavedBeforeInstallWrites(h.db, async () => {
          if (h.sent.length <= sentAtUninstall) return;
          const once = reinstall;
          reinstall = null;
          await once?.();
        }),
      });
      await client.whoami();
      h.emulator.control.uninstall(STORE);
      sentAtUninstall = h.sent.length;
      const error = await failure(client.whoami());
      expect(error).toMatchObject({ status: 401, attempts: 1 });
      expect(reinstall).toBeNull();
      const install = await findInstall(h.db, STORE);
      expect(install?.state).toBe("active");
      expect(install?.tokenCiphertext).not.toBeNull();
      await expect(h.client(STORE).whoami()).resolves.toMatchObject({ storeId: STORE });
    });

    it("403 app_suspended is recorded, calls continue, and the install is active again once lifted", async () => {
      h.emulator.control.setAppStatus("suspended");
      const error = await failure(h.client(STORE).whoami());
      expect(error).toMatchObject({ status: 403, code: "app_suspended", attempts: 1 });
      expect(error.installStateCode).toBe("app_suspended");
      expect(error.needsReinstall).toBe(false);
      expect(error.message).toMatch(/suspen/);
      expect((await findInstall(h.db, STORE))?.state).toBe("app_suspended");

      h.emulator.control.setAppStatus("approved");
      await expect(h.client(STORE).whoami()).resolves.toMatchObject({ storeId: STORE });
      const install = await findInstall(h.db, STORE);
      expect(install?.state).toBe("active");
      expect(install?.tokenCiphertext).not.toBeNull();
    });

    it("403 app_plan_required is recorded with a message saying what to do", async () => {
      h.emulator.control.setStorePlan(STORE, "free");
      const error = await failure(h.client(STORE).categories.list());
      expect(error.code).toBe("app_plan_required");
      expect(error.message).toMatch(/upgrade/i);
      expect((await findInstall(h.db, STORE))?.state).toBe("app_plan_required");
    });

    it("403 app_not_approved is recorded", async () => {
      h.emulator.control.setAppStatus("draft");
      const developerStore = h.emulator.ctx.state.apps[0]!.developerMerchantId;
      const owner = h.emulator.ctx.state.stores.find((store) => store.id === STORE)!.ownerMerchantId;
      // The fixture app's developer owns store 101, so it stays callable in test mode: make it someone else's.
      h.emulator.ctx.state.stores.find((store) => store.id === STORE)!.ownerMerchantId = developerStore === owner ? 999 : owner;
      const error = await failure(h.client(STORE).whoami());
      expect(error.code).toBe("app_not_approved");
      expect((await findInstall(h.db, STORE))?.state).toBe("app_not_approved");
    });

    it("403 app_uninstalled records the install uninstalled and destroys the token", async () => {
      // The emulator's uninstall also revokes the token (401); an install the platform deactivated without that answers 403.
      const install = h.emulator.ctx.state.installs.find((candidate) => candidate.storeId === STORE && candidate.active)!;
      install.active = false;
      const error = await failure(h.client(STORE).whoami());
      expect(error.code).toBe("app_uninstalled");
      expect(error.needsReinstall).toBe(true);
      const row = await findInstall(h.db, STORE);
      expect(row?.state).toBe("uninstalled");
      expect(row?.tokenCiphertext).toBeNull();
    });
  });
});
