import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawQuery, type DatabaseHandle } from "@/db/client";
import { installs, orderSyncState } from "@/db/schema";
import { saveInstalledStores } from "@/lib/installs/tokens";
import { configureLog, setLogSink } from "@/lib/log";
import { collectPool, collectSyncLag, oncePerInterval, registerScrapeCollectors, SYNC_LAG_TOP_STORES } from "@/lib/observability/collectors";
import { unregisterCollector, renderMetrics } from "@/lib/observability/registry";
import { reportRequestError, setErrorReporter, type ErrorReport } from "@/lib/observability/report-error";
import { signIn, signOut, signOutEverywhere } from "@/lib/session-lifecycle";
import { IDLE_TIMEOUT_MS } from "@/lib/session-policy";
import { receiveWebhookOutcome } from "@/lib/webhooks/receive";
import { sampleEnvelope, signDelivery } from "@/lib/webhooks/samples";
import { createTestDatabase, databaseKind } from "../helpers/database";
import { sampleValue } from "../helpers/metrics-text";
import { startHarness, type Harness } from "./platform-harness";

/**
 * Each metric moves with the event that should move it, on the real code paths: the webhook receiver on a real
 * database, the API client against the emulator, the session lifecycle, the error reporter, and the figures read
 * from the database when scraped. Tests run in any order and share the process's registry, so each one compares
 * the figure before and after its event.
 */

const SECRET = "svcwhsec_" + "5e".repeat(24);
const STORE = 101;

async function metric(name: string, labels: Record<string, string> = {}): Promise<number> {
  return sampleValue(await renderMetrics(), name, labels);
}

/** How much `name{labels}` moved while `event` ran. */
async function moved(name: string, labels: Record<string, string>, event: () => Promise<unknown>): Promise<number> {
  const before = await metric(name, labels);
  await event();
  return (await metric(name, labels)) - before;
}

describe(`metrics (${databaseKind()})`, () => {
  let handle: DatabaseHandle;
  let restoreLog: () => void;
  const logLines: string[] = [];

  beforeAll(async () => {
    handle = await createTestDatabase();
    await saveInstalledStores(handle.db, {
      scopes: ["orders:read"],
      stores: [101, 102, 103].map((storeId) => ({ storeId, installId: 7000 + storeId, storeName: `Store ${storeId}`, accessToken: `svcpk_live_${storeId}abc` })),
    });
    restoreLog = setLogSink((line) => logLines.push(line));
  });
  afterAll(async () => {
    restoreLog?.();
    await handle?.close();
  });

  function deliver(envelope: Record<string, unknown>, options: { secret?: string; body?: Uint8Array; db?: DatabaseHandle["db"] } = {}) {
    const signed = signDelivery(envelope, options.secret ?? SECRET);
    const request = new Request("http://app.test/api/webhooks", {
      method: "POST",
      body: options.body ?? new Uint8Array(signed.body),
      headers: signed.headers,
      duplex: "half",
    } as RequestInit);
    return receiveWebhookOutcome(request, { db: options.db ?? handle.db, secret: SECRET });
  }

  describe("webhook deliveries", () => {
    const deliveries = "store_app_webhook_deliveries_total";

    it("counts an applied delivery and a redelivery of it as a duplicate, each with its latency", async () => {
      const envelope = sampleEnvelope("order.created", { storeId: STORE, orderId: 9101 });
      expect(await moved(deliveries, { outcome: "applied" }, () => deliver(envelope))).toBe(1);
      expect(await moved("store_app_webhook_delivery_duration_seconds_count", { outcome: "applied" }, () => deliver(sampleEnvelope("order.created", { storeId: STORE, orderId: 9102 })))).toBe(1);
      expect(await moved(deliveries, { outcome: "duplicate" }, () => deliver(envelope))).toBe(1);
      expect(await moved(deliveries, { outcome: "applied" }, () => deliver(envelope))).toBe(0);
    });

    it("counts refusals by reason", async () => {
      const envelope = sampleEnvelope("order.created", { storeId: STORE, orderId: 9103 });
      expect(await moved(deliveries, { outcome: "refused", reason: "invalid_signature" }, () => deliver(envelope, { secret: "svcwhsec_" + "00".repeat(24) }))).toBe(1);
      const notJson = new TextEncoder().encode("not json");
      const signed = signDelivery(envelope, SECRET);
      // A body signed correctly but not JSON: sign the bytes themselves.
      const { signatureHeaders } = await import("@/lib/webhooks/signature");
      const headers = { ...signed.headers, ...signatureHeaders(SECRET, notJson, Math.floor(Date.now() / 1000)) };
      const request = new Request("http://app.test/api/webhooks", { method: "POST", body: notJson, headers, duplex: "half" } as RequestInit);
      expect(await moved(deliveries, { outcome: "refused", reason: "invalid_json" }, () => receiveWebhookOutcome(request, { db: handle.db, secret: SECRET }))).toBe(1);
      expect(await moved(deliveries, { outcome: "applied" }, () => deliver(envelope, { secret: "svcwhsec_" + "00".repeat(24) }))).toBe(0);
    });

    it("counts a delivery the database could not take as failed", async () => {
      const broken = await createTestDatabase();
      await broken.close();
      const envelope = sampleEnvelope("order.created", { storeId: STORE, orderId: 9104 });
      expect(await moved(deliveries, { outcome: "failed", reason: "temporarily_unavailable" }, () => deliver(envelope, { db: broken.db }))).toBe(1);
    });
  });

  describe("sessions", () => {
    const opened = "store_app_sessions_opened_total";
    const ended = "store_app_sessions_ended_total";
    const now = new Date();

    it("counts a session opened, and the browser's previous one ended as replaced or expired", async () => {
      let first = { id: "" };
      expect(await moved(opened, {}, async () => (first = await signIn(handle.db, { previousId: null, storeIds: [101], now })))).toBe(1);
      let second = { id: "" };
      expect(await moved(ended, { reason: "replaced" }, async () => (second = await signIn(handle.db, { previousId: first.id, storeIds: [102], now })))).toBe(1);
      const later = new Date(now.getTime() + IDLE_TIMEOUT_MS + 1000);
      expect(await moved(ended, { reason: "idle_expired" }, () => signIn(handle.db, { previousId: second.id, storeIds: [102], now: later }))).toBe(1);
    });

    it("counts sign-outs, and every session a sign-out everywhere ended", async () => {
      const mine = await signIn(handle.db, { previousId: null, storeIds: [103], now });
      await signIn(handle.db, { previousId: null, storeIds: [103], now });
      expect(await moved(ended, { reason: "signed_out_everywhere" }, () => signOutEverywhere(handle.db, 103))).toBe(2);
      const other = await signIn(handle.db, { previousId: null, storeIds: [101], now });
      expect(await moved(ended, { reason: "signed_out" }, () => signOut(handle.db, other.id))).toBe(1);
      // Already gone: nothing ended.
      expect(await moved(ended, { reason: "signed_out" }, () => signOut(handle.db, mine.id))).toBe(0);
    });
  });

  describe("database", () => {
    it("times each statement on a request path and leaves none in flight", async () => {
      const query = rawQuery(handle.db);
      expect(await moved("store_app_db_statement_duration_seconds_count", {}, () => query("select 1 as one", []))).toBe(1);
      expect(await metric("store_app_db_statements_in_flight")).toBe(0);
      await expect(query("select * from no_such_table", [])).rejects.toThrow();
      expect(await metric("store_app_db_statements_in_flight")).toBe(0);
    });

    it("reports the pool: open, its kind and size", () => {
      const figures = collectPool(handle);
      expect(figures.find((metric) => metric.name === "store_app_db_pool_open")?.series).toEqual([{ labels: { kind: databaseKind() }, value: 1 }]);
      const max = figures.find((metric) => metric.name === "store_app_db_pool_max_connections")?.series[0]?.value;
      expect(max).toBeGreaterThan(0);
      expect(collectPool(null).find((metric) => metric.name === "store_app_db_pool_open")?.series).toEqual([{ labels: { kind: "none" }, value: 0 }]);
    });

    it("reads each polled store's sync lag from the database when scraped, and the oldest", async () => {
      const scrapedAt = new Date("2026-06-01T12:00:00Z");
      const db = handle.db;
      await db.delete(orderSyncState);
      await db.insert(orderSyncState).values([
        { storeId: 101, lastSyncedAt: new Date(scrapedAt.getTime() - 90_000) },
        { storeId: 102, lastSyncedAt: new Date(scrapedAt.getTime() - 400_000) },
      ]);
      const { eq } = await import("drizzle-orm");
      await db.update(installs).set({ installedAt: new Date(scrapedAt.getTime() - 1_000_000) }).where(eq(installs.storeId, 103));
      const figures = await collectSyncLag(db, scrapedAt);
      const perStore = figures.find((metric) => metric.name === "store_app_order_sync_lag_seconds")?.series ?? [];
      const lagOf = (store: number) => perStore.find((series) => series.labels?.store === String(store))?.value;
      expect(lagOf(101)).toBe(90);
      expect(lagOf(102)).toBe(400);
      // Never polled: behind since its install.
      expect(lagOf(103)).toBe(1000);
      expect(figures.find((metric) => metric.name === "store_app_order_sync_lag_max_seconds")?.series).toEqual([{ value: 1000 }]);

      // A store the poller no longer reads (uninstalled) is not behind.
      await db.update(installs).set({ state: "uninstalled" }).where(eq(installs.storeId, 103));
      const after = await collectSyncLag(db, scrapedAt);
      expect(after.find((metric) => metric.name === "store_app_order_sync_lag_max_seconds")?.series).toEqual([{ value: 400 }]);
      await db.update(installs).set({ state: "active" }).where(eq(installs.storeId, 103));
    });

    it("serves the scrape-time figures through /api/metrics's collectors", async () => {
      registerScrapeCollectors({ database: async () => handle, db: async () => handle.db, isOpening: () => false });
      try {
        const text = await renderMetrics();
        expect(sampleValue(text, "store_app_collector_up", { collector: "order_sync" })).toBe(1);
        expect(sampleValue(text, "store_app_db_pool_open", { kind: databaseKind() })).toBe(1);
        expect(text).toMatch(/^store_app_order_sync_lag_seconds\{store="101"\} \d/m);
      } finally {
        unregisterCollector("order_sync");
        unregisterCollector("database_pool");
        unregisterCollector("scope_gaps");
      }
    });
  });

  describe("request errors", () => {
    it("reports a server error once, with route, kind, request id and digest, and no token or query", async () => {
      const restoreLevel = configureLog({ level: "error", format: "json" });
      const vendor: { report: ErrorReport; error: Error }[] = [];
      const removeVendor = setErrorReporter((report, error) => void vendor.push({ report, error }));
      const error = Object.assign(new Error("upstream said no for svcpk_live_0123456789abcdef"), { digest: "1234567890" });
      const start = logLines.length;
      try {
        expect(
          await moved("store_app_request_errors_total", { kind: "render" }, () =>
            reportRequestError(
              error,
              { path: "/stores/101/orders?phone=0555123456", method: "GET", headers: { "x-request-id": "req-abcdef12", cookie: "app_session=secret" } },
              { routePath: "/stores/[storeId]/orders", routeType: "render", renderSource: "react-server-components" },
            ),
          ),
        ).toBe(1);
      } finally {
        removeVendor();
        restoreLevel();
      }
      const lines = logLines.slice(start);
      expect(lines).toHaveLength(1);
      const line = JSON.parse(lines[0]!) as Record<string, unknown>;
      expect(line).toMatchObject({ level: "error", route: "/stores/[storeId]/orders", kind: "render", requestId: "req-abcdef12", digest: "1234567890" });
      expect(lines[0]).not.toContain("svcpk_live_0123456789abcdef");
      expect(lines[0]).not.toContain("0555123456");
      expect(lines[0]).not.toContain("app_session");
      expect(vendor).toHaveLength(1);
      expect(vendor[0]!.report.route).toBe("/stores/[storeId]/orders");
      expect(vendor[0]!.error.message).toBe("upstream said no for svcpk_live_[redacted]");
      expect(vendor[0]!.error.stack).not.toContain("0123456789abcdef");
      expect(vendor[0]!.error.stack).toMatch(/\n\s+at /);
    });

    it("keeps the request going when a vendor's reporter throws", async () => {
      const removeVendor = setErrorReporter(() => {
        throw new Error("vendor down");
      });
      try {
        await expect(
          reportRequestError(new Error("boom"), { path: "/", method: "POST", headers: {} }, { routePath: "/api/webhooks", routeType: "route" }),
        ).resolves.toBeUndefined();
      } finally {
        removeVendor();
      }
    });
  });
});

describe(`order-sync lag at scale (${databaseKind()})`, () => {
  let handle: DatabaseHandle;
  const scrapedAt = new Date("2026-06-01T12:00:00Z");
  const STORES = Array.from({ length: 25 }, (_, index) => 201 + index);

  beforeAll(async () => {
    handle = await createTestDatabase();
    await saveInstalledStores(handle.db, {
      scopes: ["orders:read"],
      stores: STORES.map((storeId) => ({ storeId, installId: 8000 + storeId, storeName: `Store ${storeId}`, accessToken: `svcpk_live_${storeId}lag` })),
    });
    // Store 201 synced 100 s ago, 202 200 s ago, ... 225 2,500 s ago.
    await handle.db.insert(orderSyncState).values(STORES.map((storeId, index) => ({ storeId, lastSyncedAt: new Date(scrapedAt.getTime() - (index + 1) * 100_000) })));
  });
  afterAll(async () => {
    await handle?.close();
  });

  it("names only the stores most behind, and counts every store by threshold", async () => {
    const figures = await collectSyncLag(handle.db, scrapedAt);
    const perStore = figures.find((metric) => metric.name === "store_app_order_sync_lag_seconds")?.series ?? [];
    expect(perStore).toHaveLength(SYNC_LAG_TOP_STORES);
    expect(perStore.map((series) => series.labels?.store)).toEqual(STORES.slice(-SYNC_LAG_TOP_STORES).reverse().map(String));
    expect(perStore[0]?.value).toBe(2500);
    const behind = figures.find((metric) => metric.name === "store_app_order_sync_stores_behind")?.series ?? [];
    const over = (seconds: number) => behind.find((series) => series.labels?.over === String(seconds))?.value;
    expect(over(60)).toBe(25);
    expect(over(300)).toBe(22);
    expect(over(900)).toBe(16);
    expect(over(3600)).toBe(0);
    expect(figures.find((metric) => metric.name === "store_app_order_sync_polled_stores")?.series).toEqual([{ value: 25 }]);
    expect(figures.find((metric) => metric.name === "store_app_order_sync_lag_max_seconds")?.series).toEqual([{ value: 2500 }]);
  });

  it("reads the database once per interval, however often it is scraped", async () => {
    registerScrapeCollectors({ database: async () => handle, db: async () => handle.db, isOpening: () => false });
    try {
      const polled = async () => sampleValue(await renderMetrics(), "store_app_order_sync_polled_stores");
      expect(await polled()).toBe(25);
      const { eq } = await import("drizzle-orm");
      await handle.db.update(installs).set({ state: "uninstalled" }).where(eq(installs.storeId, 201));
      // Scraped again within the interval: the figure read a moment ago, not a second read of every install.
      expect(await polled()).toBe(25);
      expect(await collectSyncLag(handle.db, scrapedAt).then((figures) => figures.find((metric) => metric.name === "store_app_order_sync_polled_stores")?.series[0]?.value)).toBe(24);
    } finally {
      unregisterCollector("order_sync");
      unregisterCollector("database_pool");
      unregisterCollector("scope_gaps");
      const { eq } = await import("drizzle-orm");
      await handle.db.update(installs).set({ state: "active" }).where(eq(installs.storeId, 201));
    }
  });
});

describe("a read once per interval", () => {
  it("shares one read within the interval, reads again after it, and does not keep a failure", async () => {
    let clock = 1_000_000;
    let reads = 0;
    let fail = false;
    const read = oncePerInterval(
      30_000,
      async () => {
        reads += 1;
        if (fail) throw new Error("database gone");
        return reads;
      },
      () => clock,
    );
    expect(await Promise.all([read(), read()])).toEqual([1, 1]);
    clock += 29_999;
    expect(await read()).toBe(1);
    clock += 1;
    expect(await read()).toBe(2);
    clock += 30_000;
    fail = true;
    await expect(read()).rejects.toThrow("database gone");
    fail = false;
    // The failure is not served for the rest of the interval: the next scrape reads again.
    expect(await read()).toBe(4);
    expect(reads).toBe(4);
  });
});

describe("platform calls", () => {
  let h: Harness;
  const STORE_ID = 101;

  beforeAll(async () => {
    h = await startHarness();
    await h.install(STORE_ID);
  });
  afterAll(async () => {
    await h?.close();
  });

  it("counts each call by operation and status", async () => {
    expect(await moved("store_app_platform_calls_total", { operation: "GET /v1/whoami", status: "200" }, () => h.client(STORE_ID).whoami())).toBe(1);
    expect(await moved("store_app_platform_call_duration_seconds_count", { operation: "GET /v1/whoami" }, () => h.client(STORE_ID).whoami())).toBe(1);
  });

  it("counts the 429s seen and the retries they caused", async () => {
    await h.faults([{ kind: "status", status: 429, retryAfter: 2, times: 1 }]);
    const twentySecondsIntoAMinute = (Math.floor(Date.now() / 60_000) + 5) * 60_000 + 20_000;
    const before = { limited: await metric("store_app_platform_rate_limited_total"), retries: await metric("store_app_platform_retries_total", { operation: "GET /v1/whoami" }) };
    await h.client(STORE_ID, { now: () => twentySecondsIntoAMinute }).whoami();
    expect((await metric("store_app_platform_rate_limited_total")) - before.limited).toBe(1);
    expect((await metric("store_app_platform_retries_total", { operation: "GET /v1/whoami" })) - before.retries).toBe(1);
  });

  it("counts a call that failed for good under its final status", async () => {
    await h.faults([{ kind: "status", status: 503, times: 3 }]);
    expect(await moved("store_app_platform_calls_total", { operation: "GET /v1/whoami", status: "503" }, () => h.client(STORE_ID).whoami().catch(() => undefined))).toBe(1);
    await h.faults([{ kind: "drop", times: 3 }]);
    expect(await moved("store_app_platform_calls_total", { operation: "GET /v1/whoami", status: "network_error" }, () => h.client(STORE_ID).whoami().catch(() => undefined))).toBe(1);
  });

  it("observes the time a call waited for the per-minute budget", async () => {
    // A clock of our own that sleeping moves: the second call of a one-call budget waits for the next minute.
    let clock = (Math.floor(Date.now() / 60_000) + 10) * 60_000 + 30_000;
    const client = h.client(STORE_ID, {
      now: () => clock,
      sleep: async (ms) => {
        clock += ms;
      },
      pacing: { perInstall: 1 },
    });
    const before = { count: await metric("store_app_platform_pacing_wait_seconds_count"), sum: await metric("store_app_platform_pacing_wait_seconds_sum") };
    await client.whoami();
    await client.whoami();
    expect((await metric("store_app_platform_pacing_wait_seconds_count")) - before.count).toBe(2);
    expect((await metric("store_app_platform_pacing_wait_seconds_sum")) - before.sum).toBeGreaterThanOrEqual(30);
  });
});
