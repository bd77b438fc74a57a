import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { findInstall } from "@/db/queries/installs";
import { findSessionStoreAccess, openSession } from "@/db/queries/sessions";
import { keyRing } from "@/lib/crypto/token-cipher";
import { saveInstalledStores } from "@/lib/installs/tokens";
import { PlatformError, platformFor } from "@/lib/platform";
import { databaseKind } from "../helpers/database";
import { startHarness, type Harness } from "./platform-harness";

const STORE = 101;

describe(`platform client against the emulator (${databaseKind()})`, () => {
  let h: Harness;
  let installId: number;
  beforeAll(async () => {
    h = await startHarness();
    installId = (await h.install(STORE)).installId;
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(async () => {
    h.sent.length = 0;
    h.slept.length = 0;
    h.logLines.length = 0;
    await h.db.execute(sql`delete from rate_buckets`);
  });

  it("whoami: sends User-Agent, Accept, a request id of ours and the token; reshapes the answer", async () => {
    const me = await h.client(STORE).whoami();
    expect(me).toMatchObject({ storeId: STORE, type: "platform", rateLimitTier: "enterprise", app: { installId } });
    expect(me.scopes).toContain("products:read");
    const [request] = h.sent;
    expect(request?.headers.get("user-agent")).toMatch(/store-app-starter/);
    expect(request?.headers.get("accept")).toBe("application/json");
    expect(request?.headers.get("x-request-id")).toMatch(/^[A-Za-z0-9_.:-]+$/);
    expect(request?.headers.get("authorization")).toMatch(/^Bearer svcpk_live_/);
    expect(request?.headers.get("idempotency-key")).toBeNull();
  });

  it("platformFor gives the same client, its database and settings resolved on first call", async () => {
    const platform = platformFor(STORE, { db: h.db, baseUrl: h.emulator.url });
    expect((await platform.whoami()).storeId).toBe(STORE);
    let count = 0;
    for await (const category of platform.categories.iterate({ limit: 5 })) {
      expect(category.id).toBeGreaterThan(0);
      count += 1;
    }
    expect(count).toBe(h.emulator.ctx.state.categories.filter((category) => category.storeId === STORE).length);
    expect((await platform.request("GET", "/v1/whoami")).status).toBe(200);
  });

  it("platformFor records what the platform says on its database: a 401 revokes the install, destroys the token, ends its sessions", async () => {
    const other = 102;
    await h.install(other);
    await openSession(h.db, { id: "held-by-a-browser", now: new Date(), storeIds: [other] });
    const platform = platformFor(other, { db: h.db, baseUrl: h.emulator.url });
    await platform.whoami();
    h.emulator.control.uninstall(other);
    await expect(platform.whoami()).rejects.toMatchObject({ status: 401 });
    expect(await findInstall(h.db, other)).toMatchObject({ state: "revoked", tokenCiphertext: null, tokenKeyId: null });
    expect((await findSessionStoreAccess(h.db, "held-by-a-browser", other))?.install).toBeNull();
  });

  it("logs one line per call with request id, install, method, path, status, attempts and duration, never the token", async () => {
    const client = h.client(STORE);
    await client.whoami();
    const lines = h.logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: "platform call", storeId: STORE, installId, method: "GET", path: "/v1/whoami", status: 200, attempts: 1 });
    expect(typeof lines[0]?.requestId).toBe("string");
    expect(typeof lines[0]?.durationMs).toBe("number");
    expect(h.logLines.join("\n")).not.toMatch(/svcpk_live_[A-Za-z0-9]/);
  });

  it("creates, reads, renames, lists, reorders and deletes categories", async () => {
    const client = h.client(STORE);
    const parent = await client.categories.create({ name: "Client test parent" });
    expect(parent).toMatchObject({ name: "Client test parent", parentId: null, status: "active" });
    expect(parent.slug).toMatch(/client-test-parent/);
    const child = await client.categories.create({ name: "Client test child", parentId: parent.id, status: "inactive" });
    expect(child).toMatchObject({ parentId: parent.id, status: "inactive" });

    const fetched = await client.categories.get(parent.id);
    expect(fetched.children.map((category) => category.id)).toEqual([child.id]);

    const renamed = await client.categories.update(parent.id, { name: "Client test renamed" });
    expect(renamed.slug).toMatch(/client-test-renamed/);

    const inactive = await client.categories.list({ status: "inactive" });
    expect(inactive.items.map((category) => category.id)).toContain(child.id);
    const subcategories = await client.categories.list({ parentId: parent.id });
    expect(subcategories.items.map((category) => category.id)).toEqual([child.id]);

    const tree = await client.categories.tree();
    const node = tree.find((category) => category.id === parent.id);
    expect(node?.children.map((category) => category.id)).toEqual([child.id]);
    expect(tree.every((category) => category.parentId === null)).toBe(true);

    const tops = tree.slice(0, 2).map((category) => category.id);
    const applied = await client.categories.reorder([{ id: tops[1]! }, { id: tops[0]! }]);
    expect(applied.map((entry) => entry.id)).toEqual([tops[1], tops[0]]);
    const reordered = await client.categories.tree();
    expect(reordered.slice(0, 2).map((category) => category.id)).toEqual([tops[1], tops[0]]);

    await client.categories.delete(child.id);
    expect(await client.categories.delete(parent.id)).toEqual({ deleted: true, id: parent.id });
    const error = await client.categories.get(parent.id).catch((caught: unknown) => caught);
    expect((error as PlatformError).isNotFound).toBe(true);

    // Every write carried a valid key; no two writes shared one.
    const keys = h.sent.filter((request) => request.method !== "GET").map((request) => request.headers.get("idempotency-key"));
    expect(keys.every((key) => key !== null && /^[A-Za-z0-9_\-:.]{1,64}$/.test(key))).toBe(true);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("replays a form submitted twice with the caller's key: one category created", async () => {
    const client = h.client(STORE);
    const key = "form:double-submit-1";
    const first = await client.categories.create({ name: "Submitted twice" }, { idempotencyKey: key });
    const second = await client.categories.create({ name: "Submitted twice" }, { idempotencyKey: key });
    expect(second.id).toBe(first.id);
    const named = [];
    for await (const category of client.categories.iterate()) if (category.name === "Submitted twice") named.push(category);
    expect(named).toHaveLength(1);
  });

  it("pages through every order with for await, across several pages", async () => {
    for (let index = 0; index < 25; index += 1) h.emulator.control.placeOrder(STORE);
    const expected = h.emulator.ctx.state.orders.filter((order) => order.store_id === STORE).length;
    expect(expected).toBeGreaterThan(25);
    const client = h.client(STORE);
    const ids: number[] = [];
    for await (const order of client.orders.iterate({ limit: 10 })) ids.push(order.id);
    expect(ids).toHaveLength(expected);
    expect(new Set(ids).size).toBe(expected);
    expect(h.sent.length).toBe(Math.ceil(expected / 10));
    expect(h.sent[1]?.url.searchParams.get("cursor")).toBeTruthy();
  });

  it("filters orders by status and phone and reshapes them", async () => {
    const placed = h.emulator.control.placeOrder(STORE, { customer_phone: "0555000111" });
    const client = h.client(STORE);
    const page = await client.orders.list({ customerPhone: "0555000111" });
    expect(page.items.map((order) => order.id)).toContain(placed.id);
    const order = page.items.find((item) => item.id === placed.id)!;
    expect(order.orderNumber).toMatch(/^ORD-101-\d{8}-[0-9a-f]{8}$/);
    expect(typeof order.total).toBe("string");
    expect(order.createdAt).toBeInstanceOf(Date);
    const pending = await client.orders.list({ status: "pending", limit: 100 });
    expect(pending.items.every((item) => item.status === "pending")).toBe(true);
  });

  it("lists customers page by page and reads analytics", async () => {
    const client = h.client(STORE);
    const customers = [];
    for await (const customer of client.customers.iterate({ limit: 5 })) customers.push(customer);
    expect(customers.length).toBe(h.emulator.ctx.state.customers.filter((customer) => customer.storeId === STORE).length);
    expect(customers[0]).toMatchObject({ id: expect.stringMatching(/^\d+$/), name: expect.any(String) });
    const report = await client.analytics({ range: "7d" });
    expect(report.range).toBe("7d");
    expect(report.kpis.orders.state).toBe("ok");
    expect(report.charts.orders.state === "ok" && report.charts.orders.value.length).toBe(7);
    // App keys do not see revenue on the emulator unless the store says so.
    expect(report.revenueRemoved).toBe(true);
    expect(report.kpis.revenue.state).toBe("removed");
  });

  it.each([
    ["to before from", "2025-03-10", "2025-03-01"],
    ["a day that does not exist", "2025-02-30", "2025-03-01"],
    ["more than 365 days", "2024-01-01", "2025-01-01"],
  ])("refuses a bad custom analytics range locally, without a call: %s", async (_name, from, to) => {
    const error = await h.client(STORE).analytics({ range: "custom", from, to }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PlatformError);
    expect((error as PlatformError).isValidation).toBe(true);
    expect(h.sent).toHaveLength(0);
  });

  it("has a generic request for the other operations, with an idempotency key on writes", async () => {
    const client = h.client(STORE);
    const listed = await client.request<{ items: unknown[] }>("GET", "/v1/categories", { query: { limit: 2 } });
    expect(listed.status).toBe(200);
    expect(listed.data.items).toHaveLength(2);
    const created = await client.request<{ id: number }>("POST", "/v1/categories", { body: { name: "Generic request" } });
    expect(created.status).toBe(201);
    expect(created.idempotencyKey).toMatch(/^[A-Za-z0-9_\-:.]{1,64}$/);
    expect(h.sent[1]?.headers.get("idempotency-key")).toBe(created.idempotencyKey);
  });

  it.each([
    ["GET", "/v1/keys"],
    ["POST", "/v1/webhooks"],
    ["POST", "/v1/changes/5/undo"],
    ["POST", "/v1/landing-pages/generate"],
  ] as const)("refuses %s %s locally with no network call", async (method, path) => {
    const error = await h.client(STORE).request(method, path).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PlatformError);
    expect((error as PlatformError).isClosedEndpoint).toBe(true);
    expect(h.sent).toHaveLength(0);
  });

  it("never sends the token to another host", async () => {
    const error = await h.client(STORE).request("GET", "//evil.example/v1/whoami").catch((caught: unknown) => caught);
    expect((error as PlatformError).kind).toBe("local");
    expect(h.sent).toHaveLength(0);
  });

  it("reports a token the configured keys cannot open as a local PlatformError naming the key, before any call", async () => {
    const foreign = keyRing(randomBytes(32).toString("base64"));
    await saveInstalledStores(
      h.db,
      { scopes: [], stores: [{ storeId: 104, storeName: "Sealed elsewhere", installId: 9104, accessToken: "svcpk_live_elsewhere" }] },
      { ring: foreign },
    );
    const error = await h.client(104).whoami().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PlatformError);
    expect(error).toMatchObject({ kind: "local", code: "token_unreadable" });
    expect((error as PlatformError).message).toContain(foreign.current.id);
    expect((error as PlatformError).message).not.toContain("svcpk_live_");
    expect(h.sent).toHaveLength(0);
  });

  it("refuses locally, before any call, a store the app is not installed on", async () => {
    const error = await h.client(103).whoami().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: "local", code: "install_inactive" });
    expect((error as PlatformError).needsReinstall).toBe(true);
    expect(h.sent).toHaveLength(0);
  });
});
