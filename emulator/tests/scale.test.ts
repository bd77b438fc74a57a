import { beforeEach, describe, expect, it } from "vitest";
import type { ApiCall } from "../src/runtime";
import { overlappingCalls } from "../src/scale";
import { api, startEmulatorForFile } from "./support";

const emu = startEmulatorForFile();
beforeEach(() => emu.control.reset());

async function control(method: string, route: string, body?: unknown) {
  const response = await fetch(`${emu.url}/_emulator/${route}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: response.status, json: (await response.json()) as any };
}

type Minted = { storeId: number; storeName: string; installId: number; accessToken: string };

describe("POST /_emulator/stores/mint", () => {
  it("mints N installed stores with M orders each, whose tokens read their own orders", async () => {
    const before = emu.ctx.state.stores.length;
    const { status, json } = await control("POST", "stores/mint", { count: 3, ordersPerStore: 4 });
    expect(status).toBe(200);
    const stores = json.stores as Minted[];
    expect(stores).toHaveLength(3);
    expect(new Set(stores.map((store) => store.storeId)).size).toBe(3);
    expect(emu.ctx.state.stores).toHaveLength(before + 3);
    for (const store of stores) {
      expect(store.accessToken).toMatch(/^svcpk_live_[0-9a-f]{48}$/);
      const listed = await api(emu, store.accessToken, "GET", "/v1/orders?limit=50");
      expect(listed.status).toBe(200);
      expect(listed.json.data.items).toHaveLength(4);
      expect(listed.json.data.items.every((order: { store_id: number }) => order.store_id === store.storeId)).toBe(true);
    }
    const state = await control("GET", "state");
    const installed = new Set((state.json.installs as { storeId: number; active: boolean }[]).filter((install) => install.active).map((install) => install.storeId));
    for (const store of stores) expect(installed.has(store.storeId)).toBe(true);
  });

  it("a second call mints new stores after the first, without orders when none are asked for", async () => {
    const first = (await control("POST", "stores/mint", { count: 2 })).json.stores as Minted[];
    const second = (await control("POST", "stores/mint", { count: 2 })).json.stores as Minted[];
    expect(Math.min(...second.map((store) => store.storeId))).toBeGreaterThan(Math.max(...first.map((store) => store.storeId)));
    const listed = await api(emu, second[0]!.accessToken, "GET", "/v1/orders");
    expect(listed.json.data.items).toEqual([]);
  });

  it("refuses a count or an order count out of range", async () => {
    expect((await control("POST", "stores/mint", { count: 0 })).status).toBe(400);
    expect((await control("POST", "stores/mint", { count: 1.5 })).status).toBe(400);
    expect((await control("POST", "stores/mint", {})).status).toBe(400);
    expect((await control("POST", "stores/mint", { count: 1, ordersPerStore: -1 })).status).toBe(400);
    expect((await control("POST", "stores/mint", { count: 1, ordersPerStore: 5_000 })).status).toBe(400);
  });
});

describe("API latency and the call record", () => {
  it("adds the latency to every /v1 answer and records each call with its store", async () => {
    const [store] = (await control("POST", "stores/mint", { count: 1, ordersPerStore: 1 })).json.stores as Minted[];
    const set = await control("POST", "api/settings", { latencyMs: 400, recordCalls: true });
    expect(set.status).toBe(200);
    expect(set.json).toEqual({ latencyMs: 400, recordCalls: true });
    expect((await api(emu, store!.accessToken, "GET", "/v1/orders")).status).toBe(200);
    expect((await api(emu, "svcpk_live_unknown", "GET", "/v1/orders")).status).toBe(401);

    const { json } = await control("GET", "api/calls");
    const calls = json.calls as ApiCall[];
    expect(calls.map((call) => [call.storeId, call.method, call.path, call.status])).toEqual([
      [store!.storeId, "GET", "/v1/orders", 200],
      [null, "GET", "/v1/orders", 401],
    ]);
    // A lower bound: a loaded machine only makes a call longer. (A timer may fire a millisecond early.)
    for (const call of calls) expect(call.endedAt - call.startedAt).toBeGreaterThanOrEqual(398);
  });

  it("without latency, a call is not held back; clear=1 empties the record and recording goes on", async () => {
    const [store] = (await control("POST", "stores/mint", { count: 1 })).json.stores as Minted[];
    await control("POST", "api/settings", { latencyMs: 5_000, recordCalls: true });
    await control("POST", "api/settings", { latencyMs: 0 });
    // Held 5 s, this call would outlast the test's own timeout.
    await api(emu, store!.accessToken, "GET", "/v1/orders");
    expect((await control("GET", "api/calls?clear=1")).json.calls).toHaveLength(1);
    expect((await control("GET", "api/calls")).json.calls).toHaveLength(0);
    await api(emu, store!.accessToken, "GET", "/v1/orders");
    expect((await control("GET", "api/calls")).json.calls).toHaveLength(1);
  }, 4_000);

  it("records nothing until asked, and a reset clears the latency and the record", async () => {
    const [store] = (await control("POST", "stores/mint", { count: 1 })).json.stores as Minted[];
    await api(emu, store!.accessToken, "GET", "/v1/orders");
    expect((await control("GET", "api/calls")).json.calls).toEqual([]);
    await control("POST", "api/settings", { latencyMs: 300, recordCalls: true });
    await control("POST", "reset");
    expect((await control("GET", "api/settings")).json).toEqual({ latencyMs: 0, recordCalls: false });
  });

  it("refuses a latency out of range or a recordCalls that is not a boolean", async () => {
    expect((await control("POST", "api/settings", { latencyMs: -1 })).status).toBe(400);
    expect((await control("POST", "api/settings", { latencyMs: 120_000 })).status).toBe(400);
    expect((await control("POST", "api/settings", { recordCalls: "yes" })).status).toBe(400);
    expect((await control("GET", "api/settings")).json).toEqual({ latencyMs: 0, recordCalls: false });
  });

  it("tells two calls of one store at once from calls one after another", async () => {
    const [one, two] = (await control("POST", "stores/mint", { count: 2 })).json.stores as Minted[];
    await control("POST", "api/settings", { latencyMs: 300, recordCalls: true });
    // One after another on store one; two at once on store two.
    await api(emu, one!.accessToken, "GET", "/v1/orders");
    await api(emu, one!.accessToken, "GET", "/v1/orders");
    await Promise.all([api(emu, two!.accessToken, "GET", "/v1/orders"), api(emu, two!.accessToken, "GET", "/v1/orders")]);
    const calls = emu.control.apiCalls();
    expect(calls).toHaveLength(4);
    const overlaps = overlappingCalls(calls);
    expect(overlaps.map((overlap) => overlap.storeId)).toEqual([two!.storeId]);
  });
});
