import { afterEach, describe, expect, it, vi } from "vitest";
import { counter, gauge, histogram, registerCollector, renderMetrics, unregisterCollector } from "@/lib/observability/registry";
import { operationOf } from "@/lib/observability/metrics";
import { sqlOperation } from "@/lib/observability/database";
import { classifyDelivery } from "@/lib/observability/webhooks";
import { parseExposition, sampleValue } from "../helpers/metrics-text";

/** The exposition format and the one-registry-per-process rule, without a server. */

const unique = () => `test_${Math.random().toString(36).slice(2, 10)}`;

describe("metrics registry", () => {
  afterEach(() => {
    unregisterCollector("test_ok");
    unregisterCollector("test_broken");
  });

  it("prints a counter's help, type and each label set, escaping label values", async () => {
    const name = unique();
    const hits = counter(name, "Hits, with a \\ backslash\nand a newline.", ["route"]);
    hits.inc({ route: 'say "hi"\\' });
    hits.inc({ route: 'say "hi"\\' }, 2);
    hits.inc({ route: "b" });
    hits.inc();
    const text = await renderMetrics();
    expect(text).toContain(`# HELP ${name} Hits, with a \\\\ backslash\\nand a newline.\n# TYPE ${name} counter\n`);
    expect(text).toContain(`${name}{route="say \\"hi\\"\\\\"} 3\n`);
    expect(sampleValue(text, name, { route: 'say "hi"\\' })).toBe(3);
    expect(sampleValue(text, name, { route: "b" })).toBe(1);
    expect(sampleValue(text, name)).toBe(1);
  });

  it("keeps one series per label set whatever the order the labels are given in", async () => {
    const name = unique();
    const hits = counter(name, "Hits.", ["a", "b"]);
    hits.inc({ a: "1", b: "2" });
    hits.inc({ b: "2", a: "1" });
    const lines = parseExposition(await renderMetrics()).filter((line) => line.name === name);
    expect(lines).toEqual([{ name, labels: { a: "1", b: "2" }, value: 2 }]);
  });

  it("prints a histogram's buckets cumulatively, with +Inf, sum and count", async () => {
    const name = unique();
    const latency = histogram(name, "Latency.", ["outcome"], [0.1, 1]);
    latency.observe({ outcome: "ok" }, 0.05);
    latency.observe({ outcome: "ok" }, 0.5);
    latency.observe({ outcome: "ok" }, 3);
    const text = await renderMetrics();
    expect(text).toContain(`# TYPE ${name} histogram\n`);
    expect(sampleValue(text, `${name}_bucket`, { outcome: "ok", le: "0.1" })).toBe(1);
    expect(sampleValue(text, `${name}_bucket`, { outcome: "ok", le: "1" })).toBe(2);
    expect(sampleValue(text, `${name}_bucket`, { outcome: "ok", le: "+Inf" })).toBe(3);
    expect(sampleValue(text, `${name}_sum`, { outcome: "ok" })).toBeCloseTo(3.55);
    expect(sampleValue(text, `${name}_count`, { outcome: "ok" })).toBe(3);
  });

  it("moves a gauge up and down", async () => {
    const name = unique();
    const inFlight = gauge(name, "In flight.");
    inFlight.add({}, 1);
    inFlight.add({}, 1);
    inFlight.add({}, -1);
    expect(sampleValue(await renderMetrics(), name)).toBe(1);
    inFlight.set({}, 7);
    expect(sampleValue(await renderMetrics(), name)).toBe(7);
  });

  it("is one registry for every copy of the module, as a production build loads it (prometheus/client_js #640)", async () => {
    vi.resetModules();
    const first = await import("@/lib/observability/registry");
    vi.resetModules();
    const second = await import("@/lib/observability/registry");
    expect(second).not.toBe(first);
    const name = unique();
    first.counter(name, "Counted by one copy.").inc();
    // The same metric declared by the second copy is the first copy's, not a second series (nor prom-client's
    // "already registered" error).
    second.counter(name, "Counted by one copy.").inc();
    expect(sampleValue(await second.renderMetrics(), name)).toBe(2);
    expect(sampleValue(await renderMetrics(), name)).toBe(2);
  });

  it("exposes Node's process metrics under their standard names: event-loop lag, heap, GC, handles, CPU", async () => {
    // The event-loop monitor samples while the loop turns: give it a few turns.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const text = await renderMetrics();
    for (const name of ["nodejs_eventloop_lag_seconds", "nodejs_eventloop_lag_p99_seconds", "nodejs_heap_size_used_bytes", "nodejs_active_handles_total", "process_cpu_user_seconds_total", "process_resident_memory_bytes"]) {
      expect(text, name).toMatch(new RegExp(`^${name} [0-9.e+-]+$`, "m"));
    }
    expect(sampleValue(text, "nodejs_heap_size_used_bytes")).toBeGreaterThan(1_000_000);
    expect(text).toContain("# TYPE nodejs_gc_duration_seconds histogram\n");
    // Registered once per process, however many copies of the module load (a second set would be refused by name).
    expect(text.match(/^# TYPE nodejs_eventloop_lag_seconds /gm)).toHaveLength(1);
  });

  it("adds every scrape-time collector's figures, and says which collector failed without failing the rest", async () => {
    const failures: string[] = [];
    registerCollector("test_ok", () => [{ name: "test_queue_depth", help: "Depth.", type: "gauge", series: [{ labels: { kind: "sync" }, value: 4 }] }]);
    registerCollector("test_broken", async () => {
      throw new Error("database gone");
    });
    const text = await renderMetrics({ onCollectorError: (name) => failures.push(name) });
    expect(sampleValue(text, "test_queue_depth", { kind: "sync" })).toBe(4);
    expect(sampleValue(text, "store_app_collector_up", { collector: "test_ok" })).toBe(1);
    expect(text).toContain('store_app_collector_up{collector="test_broken"} 0\n');
    expect(failures).toEqual(["test_broken"]);
    // Registered by name: a module loaded twice replaces its collector instead of doubling its figures.
    registerCollector("test_ok", () => [{ name: "test_queue_depth", help: "Depth.", type: "gauge", series: [{ value: 5 }] }]);
    expect(parseExposition(await renderMetrics()).filter((line) => line.name === "test_queue_depth")).toHaveLength(1);
  });
});

describe("metric labels", () => {
  it("names a platform operation by its method and path template", () => {
    expect(operationOf("GET", "/v1/orders/5001")).toBe("GET /v1/orders/:id");
    expect(operationOf("PATCH", "/v1/categories/42")).toBe("PATCH /v1/categories/:id");
    expect(operationOf("GET", "/v1/customers/cus_8f3a9c2d")).toBe("GET /v1/customers/:id");
    expect(operationOf("GET", "/v1/whoami")).toBe("GET /v1/whoami");
    expect(operationOf("GET", "/v1/orders")).toBe("GET /v1/orders");
  });

  it("names a statement by its first keyword only", () => {
    expect(sqlOperation("insert into orders (a) values ($1)")).toBe("INSERT");
    expect(sqlOperation("  SELECT 1")).toBe("SELECT");
    expect(sqlOperation("with claimed as (insert into x values ($1) returning id) update orders set a = $2")).toBe("WITH");
    expect(sqlOperation("")).toBe("SQL");
  });

  it("sorts webhook answers into applied, duplicate, refused and failed", () => {
    expect(classifyDelivery({ status: 200, body: { ok: true, duplicate: false } })).toEqual({ outcome: "applied" });
    expect(classifyDelivery({ status: 200, body: { ok: true, duplicate: true } })).toEqual({ outcome: "duplicate" });
    expect(classifyDelivery({ status: 401, body: { ok: false, error: "invalid_signature" } })).toEqual({ outcome: "refused", reason: "invalid_signature" });
    expect(classifyDelivery({ status: 413, body: { ok: false, error: "payload_too_large" } })).toEqual({ outcome: "refused", reason: "payload_too_large" });
    expect(classifyDelivery({ status: 503, body: { ok: false, error: "temporarily_unavailable" } })).toEqual({ outcome: "failed", reason: "temporarily_unavailable" });
  });
});

describe("a worker's own metrics port", () => {
  it("listens on loopback unless told otherwise: the bearer must not cross a network in clear", async () => {
    const { serveMetrics } = await import("@/lib/observability/metrics-server");
    const server = await serveMetrics({ port: 0, secret: "worker-metrics-secret-0123" });
    try {
      expect((server.address() as import("node:net").AddressInfo).address).toBe("127.0.0.1");
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    const opened = await serveMetrics({ port: 0, host: "0.0.0.0", secret: "worker-metrics-secret-0123" });
    try {
      expect((opened.address() as import("node:net").AddressInfo).address).toBe("0.0.0.0");
    } finally {
      await new Promise((resolve) => opened.close(resolve));
    }
  });

  it("takes its address from WORKER_METRICS_HOST, loopback when unset, and refuses what is not an IP address", async () => {
    const { parseEnv, EnvError } = await import("@/lib/env");
    expect(parseEnv({ NODE_ENV: "test" }).WORKER_METRICS_HOST).toBe("127.0.0.1");
    expect(parseEnv({ NODE_ENV: "test", WORKER_METRICS_HOST: "0.0.0.0" }).WORKER_METRICS_HOST).toBe("0.0.0.0");
    expect(parseEnv({ NODE_ENV: "test", WORKER_METRICS_HOST: "::" }).WORKER_METRICS_HOST).toBe("::");
    expect(() => parseEnv({ NODE_ENV: "test", WORKER_METRICS_HOST: "metrics.internal" })).toThrow(EnvError);
    expect(() => parseEnv({ NODE_ENV: "test", WORKER_METRICS_HOST: "metrics.internal" })).toThrow(/WORKER_METRICS_HOST/);
  });

  it("serves this process's registry on /metrics behind the bearer secret", async () => {
    const { serveMetrics } = await import("@/lib/observability/metrics-server");
    const name = unique();
    counter(name, "Counted in the worker.", ["kind"]).inc({ kind: "sync" }, 3);
    const server = await serveMetrics({ port: 0, host: "127.0.0.1", secret: "worker-metrics-secret-0123" });
    try {
      const { port } = server.address() as import("node:net").AddressInfo;
      const url = `http://127.0.0.1:${port}/metrics`;
      expect((await fetch(url)).status).toBe(401);
      expect((await fetch(url, { headers: { authorization: "Bearer nope-nope-nope-nope" } })).status).toBe(401);
      expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
      const answer = await fetch(url, { headers: { authorization: "Bearer worker-metrics-secret-0123" } });
      expect(answer.status).toBe(200);
      expect(answer.headers.get("content-type")).toContain("version=0.0.4");
      expect(sampleValue(await answer.text(), name, { kind: "sync" })).toBe(3);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
