import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ScopeGapBanner } from "@/components/scope-gap";
import { StoreCard } from "@/components/store-card";
import { findInstall } from "@/db/queries/installs";
import { migrateDatabase } from "@/lib/database/migrate";
import { openAppDatabase } from "@/lib/database/open";
import { formatsFor } from "@/i18n/format";
import type { Locale } from "@/i18n/locales";
import { countStoresLackingScopes, NEEDED_SCOPES, needsConsentAgain, scopeGap } from "@/lib/installs/scopes";
import { saveInstalledStores } from "@/lib/installs/tokens";
import { collectScopeGaps, registerScrapeCollectors } from "@/lib/observability/collectors";
import { renderMetrics, unregisterCollector } from "@/lib/observability/registry";
import { PAGE_SCOPES } from "@/lib/sections";
import { pollableStoreIds, syncStoreOrders } from "@/lib/sync/orders-sync";
import { createTestDatabase, databaseKind } from "../helpers/database";
import { translator } from "../helpers/i18n";
import { sampleValue } from "../helpers/metrics-text";
import { startHarness, type Harness } from "./platform-harness";

const without = (...left: string[]) => NEEDED_SCOPES.filter((scope) => !left.includes(scope));

function banner(storeId: number, granted: readonly string[], locale: Locale = "en"): string {
  return renderToStaticMarkup(
    createElement(ScopeGapBanner, { storeId, storeName: "Amina Couture", granted, t: translator(locale), format: formatsFor(locale, "Africa/Algiers") }),
  );
}

/** The store each token the tests minted belongs to. */
const tokens = new Map<string, number>();

function ordersCalls(h: Harness, storeId: number): number {
  return h.sent.filter((request) => request.url.pathname === "/v1/orders" && tokens.get(request.headers.get("authorization") ?? "") === storeId).length;
}

/**
 * The comparison of each install's grant with what the app needs (lib/installs/scopes.ts), against the emulator and
 * a real database: a grant with more than needed is never asked again, a missing page scope locks only its
 * sections, and a missing sync scope stops the sync before any call, however often it runs, until the consent run
 * again for the store stores the new scopes and token.
 */
describe(`scopes that grow with the app (${databaseKind()})`, () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  async function install(storeId: number, scopes: string[]) {
    const minted = await h.install(storeId, scopes);
    tokens.set(`Bearer ${minted.accessToken}`, storeId);
    return minted;
  }

  it("needs the sections' scopes and the sync's, and asks nothing of a grant with more than that", async () => {
    expect(NEEDED_SCOPES).toEqual(expect.arrayContaining([...PAGE_SCOPES, "orders:read"]));
    const generous = [...NEEDED_SCOPES, "orders:write"];
    await install(101, generous);
    const row = await findInstall(h.db, 101);
    expect(row?.scopes).toEqual(generous);
    expect(scopeGap(row!.scopes)).toEqual({ missing: [], lockedSections: [], syncBlocked: false });
    expect(needsConsentAgain(row!)).toBe(false);
    expect(banner(101, row!.scopes)).toBe("");
    const card = renderToStaticMarkup(createElement("ul", null, createElement(StoreCard, { install: row!, t: translator("en") })));
    expect(card).not.toContain("data-scope-gap");
    expect(card).not.toContain("data-locked");
  });

  it("locks only the sections a missing page scope opens, and names them in the merchant's language", async () => {
    await install(102, without("customers:read"));
    const row = (await findInstall(h.db, 102))!;
    expect(scopeGap(row.scopes)).toEqual({ missing: ["customers:read"], lockedSections: ["customers"], syncBlocked: false });
    expect(needsConsentAgain(row)).toBe(true);

    const words = {
      en: ["“See customers”", "Customers"],
      fr: ["«\u00a0Voir les clients\u00a0»", "Clients"],
      ar: ["«الاطلاع على الزبائن»", "الزبائن"],
    } as const;
    for (const [locale, [permission, section]] of Object.entries(words) as [Locale, readonly [string, string]][]) {
      const html = banner(102, row.scopes, locale);
      expect(html, locale).toContain(permission);
      expect(html, locale).toContain(section);
      expect(html, locale).toContain(`href="/install?return_to=${encodeURIComponent("/stores/102/customers")}"`);
    }
    const card = renderToStaticMarkup(createElement("ul", null, createElement(StoreCard, { install: row, t: translator("en") })));
    expect(card).toContain('data-scope-gap="customers:read"');
    // One locked mark: on Customers' link, not on the others'.
    expect(card.match(/data-locked/g)).toHaveLength(1);
    expect(card).toMatch(/href="\/stores\/102\/customers"[^>]*>Customers<span data-locked/);

    // The sync's scope is there: the store is polled as before.
    expect(await pollableStoreIds(h.db)).toContain(102);
  });

  it("a missing sync scope stops the sync before any call, however often it runs: a state, not a loop of 403s", async () => {
    await install(103, without("orders:read"));
    const row = (await findInstall(h.db, 103))!;
    expect(scopeGap(row.scopes)).toMatchObject({ missing: ["orders:read"], lockedSections: ["orders"], syncBlocked: true });
    expect(await pollableStoreIds(h.db)).not.toContain(103);

    const platform = { baseUrl: h.emulator.url, fetch: recordingFetchOf(h) };
    for (let poll = 0; poll < 3; poll++) {
      const result = await syncStoreOrders(h.db, 103, { platform });
      expect(result).toMatchObject({ outcome: "skipped", detail: "orders:read not granted", fetched: 0 });
    }
    expect(ordersCalls(h, 103)).toBe(0);
    expect(h.sent.filter((request) => request.status === 403)).toEqual([]);
    const html = banner(103, row.scopes);
    expect(html).toContain("the app does not fetch this store&#x27;s orders");

    // The consent again for the store: same install id, new token and scopes, stored as a re-install stores them.
    const again = await install(103, [...NEEDED_SCOPES]);
    expect(again.installId).toBe(row.installId);
    const upgraded = (await findInstall(h.db, 103))!;
    expect(upgraded.installId).toBe(row.installId);
    expect(upgraded.tokenCiphertext).not.toBe(row.tokenCiphertext);
    expect(scopeGap(upgraded.scopes).missing).toEqual([]);
    expect(banner(103, upgraded.scopes)).toBe("");
    const synced = await syncStoreOrders(h.db, 103, { full: true, platform });
    expect(synced.outcome).toBe("synced");
    expect(synced.fetched).toBe(h.emulator.control.storeOrders(103).length);
    expect(ordersCalls(h, 103)).toBeGreaterThan(0);
  });

  it("counts the stores lacking each scope for the metrics, leaving out stores the app no longer reaches", async () => {
    const { eq } = await import("drizzle-orm");
    const { installs } = await import("@/db/schema");
    // Tests run in any order: this one counts over stores of its own.
    await h.db.delete(installs);
    await install(201, without("customers:read", "analytics:read"));
    await install(301, without("customers:read"));
    await install(101, [...NEEDED_SCOPES]);
    const counted = (figures: Awaited<ReturnType<typeof collectScopeGaps>>, scope: string) =>
      figures[0]?.series.find((series) => series.labels?.scope === scope)?.value;
    const figures = await collectScopeGaps(h.db);
    expect(figures[0]?.name).toBe("store_app_stores_missing_scope");
    // 201 and 301 lack customers:read, 201 analytics:read, 101 nothing.
    expect(counted(figures, "customers:read")).toBe(2);
    expect(counted(figures, "analytics:read")).toBe(1);
    expect(counted(figures, "orders:read")).toBe(0);
    expect(figures[0]?.series).toHaveLength(NEEDED_SCOPES.length);

    await h.db.update(installs).set({ state: "uninstalled" }).where(eq(installs.storeId, 201));
    expect(counted(await collectScopeGaps(h.db), "customers:read")).toBe(1);
    await h.db.update(installs).set({ state: "active" }).where(eq(installs.storeId, 201));

    registerScrapeCollectors({ database: async () => { throw new Error("not needed"); }, db: async () => h.db, isOpening: () => true });
    try {
      const text = await renderMetrics();
      expect(sampleValue(text, "store_app_collector_up", { collector: "scope_gaps" })).toBe(1);
      expect(sampleValue(text, "store_app_stores_missing_scope", { scope: "customers:read" })).toBe(2);
      expect(sampleValue(text, "store_app_stores_missing_scope", { scope: "analytics:read" })).toBe(1);
    } finally {
      for (const name of ["order_sync", "database_pool", "scope_gaps"]) unregisterCollector(name);
    }
  });

  it("weighs a grouped grant by its stores", () => {
    expect(
      countStoresLackingScopes([
        { state: "active", scopes: without("customers:read"), stores: 40 },
        { state: "app_suspended", scopes: [], stores: 2 },
        { state: "revoked", scopes: [], stores: 7 },
      ]).find((row) => row.scope === "customers:read"),
    ).toEqual({ scope: "customers:read", stores: 42 });
  });
});

function recordingFetchOf(h: Harness): typeof fetch {
  // The harness's own client records every request; this one does the same for the poller's default client.
  return async (input, init) => {
    const entry = { method: init?.method ?? "GET", url: new URL(String(input)), headers: new Headers(init?.headers), body: null, status: null as number | null, at: h.emulator.ctx.clock.nowMs() };
    h.sent.push(entry);
    const response = await fetch(input, init);
    entry.status = response.status;
    return response;
  };
}

/** `npm run jobs` on a database holding stores with and without customers:read: the count per scope it prints. */
describe(`npm run jobs counts the stores lacking each scope (${databaseKind()})`, () => {
  it("prints the stores lacking each needed scope", async () => {
    const server = databaseKind() === "server";
    const folder = server ? null : await mkdtemp(join(tmpdir(), "scope-gaps-"));
    const handle = server ? await createTestDatabase() : await openAppDatabase({ embedded: folder! });
    try {
      if (!server) await migrateDatabase(handle);
      for (const [storeId, scopes] of [
        [201, without("customers:read")],
        [202, without("customers:read")],
        [203, [...NEEDED_SCOPES]],
      ] as const) {
        await saveInstalledStores(handle.db, {
          scopes: [...scopes],
          stores: [{ storeId, storeName: `Store ${storeId}`, installId: 9000 + storeId, accessToken: `svcpk_live_${"a".repeat(40)}${storeId}` }],
        });
      }
      const env = server ? { DATABASE_URL: handle.connectionString! } : { DATABASE_URL: "", PGLITE_DIR: folder! };
      // The embedded folder opens in one process at a time.
      if (!server) await handle.close();
      const child = spawn(process.execPath, ["--import", "tsx", "scripts/jobs.ts"], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
      expect(code, stderr).toBe(0);
      expect(stdout).toContain("Stores lacking a scope the app needs");
      expect(stdout).toMatch(/^\s+customers:read\s+2$/m);
      expect(stdout).not.toMatch(/^\s+orders:read\s+\d+$/m);
    } finally {
      if (server) await handle.close();
      if (folder) await rm(folder, { recursive: true, force: true });
    }
  }, 120_000);
});
