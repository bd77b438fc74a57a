import { SpanKind } from "@opentelemetry/api";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import type { DatabaseHandle } from "@/db/client";
import { saveInstalledStores } from "@/lib/installs/tokens";
import { configureLog, log, setLogSink } from "@/lib/log";
import { tracingEnabled, withSpan } from "@/lib/observability/trace";
import { startTracing, stopTracing } from "@/lib/observability/tracing-setup";
import { receiveWebhookOutcome } from "@/lib/webhooks/receive";
import { sampleEnvelope } from "@/lib/webhooks/samples";
import { createTestDatabase, databaseKind } from "../helpers/database";
import { startHarness, type Harness } from "./platform-harness";
import { signedWebhookRequest } from "../helpers/webhook-request";

/**
 * Tracing on, against the OpenTelemetry SDK's in-memory exporter: the spans the app makes, how they nest, and the
 * trace id on the log lines written inside them. Then off again: no span, no trace id.
 */

const SECRET = "svcwhsec_" + "5e".repeat(24);
const STORE = 101;

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe(`tracing (${databaseKind()})`, () => {
  let handle: DatabaseHandle;
  let harness: Harness;
  const exporter = new InMemorySpanExporter();
  const lines: string[] = [];
  let restore: (() => void)[] = [];

  beforeAll(async () => {
    handle = await createTestDatabase();
    await saveInstalledStores(handle.db, {
      scopes: ["orders:read"],
      stores: [{ storeId: STORE, installId: 7101, storeName: "Amina Couture", accessToken: "svcpk_live_tracing" }],
    });
    harness = await startHarness();
    await harness.install(STORE);
    startTracing({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    // After the harness: its own sink and level are replaced by ours for the whole file.
    restore = [setLogSink((line) => lines.push(line)), configureLog({ level: "info", format: "json" })];
  });
  afterEach(() => exporter.reset());
  afterAll(async () => {
    for (const undo of restore.reverse()) undo();
    await stopTracing();
    await harness?.close();
    await handle?.close();
  });

  function deliver(envelope: Record<string, unknown>) {
    const request = signedWebhookRequest(envelope, SECRET);
    return receiveWebhookOutcome(request, { db: handle.db, secret: SECRET, logger: log.with({ requestId: "req-tracing-1" }) });
  }

  it("puts one webhook delivery's receiver steps and database statements under one trace, and its log lines carry it", async () => {
    const start = lines.length;
    const envelope = sampleEnvelope("order.created", { storeId: STORE, orderId: 7701 });
    // An accepted delivery logs at debug (one line per event would flood a busy receiver's logs).
    const undoDebug = configureLog({ level: "debug" });
    try {
      expect((await deliver(envelope)).status).toBe(200);
    } finally {
      undoDebug();
    }

    const spans = exporter.getFinishedSpans();
    const receive = spans.find((span) => span.name === "webhook.receive");
    expect(receive).toBeDefined();
    const traceId = receive!.spanContext().traceId;
    const inTrace = spans.filter((span) => span.spanContext().traceId === traceId);
    const named = (name: string) => inTrace.find((span) => span.name === name);
    for (const step of ["webhook.signature", "webhook.parse", "webhook.envelope", "webhook.transaction"]) {
      expect(named(step), step).toBeDefined();
      expect(parentOf(named(step)!), step).toBe(receive!.spanContext().spanId);
    }
    const statements = inTrace.filter((span) => span.name.startsWith("db "));
    expect(statements.length).toBeGreaterThan(0);
    for (const statement of statements) {
      expect(parentOf(statement)).toBe(named("webhook.transaction")!.spanContext().spanId);
      expect(statement.attributes["db.query.text"]).toMatch(/\$1/);
      // The statement's text, never its values.
      expect(JSON.stringify(statement.attributes)).not.toContain("7701");
    }

    const written = lines.slice(start).map((line) => JSON.parse(line) as Record<string, unknown>);
    const applied = written.find((line) => line.msg === "webhook applied");
    expect(applied).toMatchObject({ trace_id: traceId, span_id: receive!.spanContext().spanId, requestId: "req-tracing-1" });
    expect(written.every((line) => line.trace_id === traceId)).toBe(true);
  });

  it("marks a refused delivery's trace with its answer", async () => {
    const request = signedWebhookRequest(sampleEnvelope("order.created", { storeId: STORE, orderId: 7702 }), "svcwhsec_" + "00".repeat(24));
    expect((await receiveWebhookOutcome(request, { db: handle.db, secret: SECRET })).status).toBe(401);
    const receive = exporter.getFinishedSpans().find((span) => span.name === "webhook.receive");
    expect(receive?.attributes["http.response.status_code"]).toBe(401);
    expect(exporter.getFinishedSpans().some((span) => span.name === "webhook.transaction")).toBe(false);
  });

  it("gives each platform call a span, with its pacing wait and retries under it", async () => {
    await harness.faults([{ kind: "status", status: 503, times: 1 }]);
    await harness.client(STORE).whoami();
    const spans = exporter.getFinishedSpans();
    const call = spans.find((span) => span.name === "platform.call");
    expect(call?.attributes).toMatchObject({ "http.request.method": "GET", "store_app.operation": "GET /v1/whoami", "store_app.attempts": 2, "http.response.status_code": 200 });
    const children = spans.filter((span) => parentOf(span) === call!.spanContext().spanId).map((span) => span.name);
    expect(children.filter((name) => name === "platform.pacing")).toHaveLength(2);
    expect(children).toContain("platform.retry_wait");
    // Each attempt's outgoing request: a client span of @vercel/otel's fetch instrumentation under the call, with
    // the answer's status.
    const requests = spans.filter((span) => parentOf(span) === call!.spanContext().spanId && span.name.startsWith("fetch GET "));
    expect(requests.map((span) => span.attributes["http.status_code"])).toEqual([503, 200]);
    expect(requests.every((span) => span.kind === SpanKind.CLIENT && span.name.endsWith("/v1/whoami"))).toBe(true);
    // The call's log line is written inside its span.
    const line = lines.map((text) => JSON.parse(text) as Record<string, unknown>).findLast((entry) => entry.msg === "platform call");
    expect(line?.trace_id).toBe(call!.spanContext().traceId);

    // A query string (a search may hold a customer's phone) stays out of the span's name and attributes.
    exporter.reset();
    await harness.client(STORE).request("GET", "/v1/whoami", { query: { q: "0555123456" } });
    const searched = exporter.getFinishedSpans().filter((span) => span.name.startsWith("fetch GET "));
    expect(searched).toHaveLength(1);
    expect(searched[0]!.attributes["http.url"]).toMatch(/\/v1\/whoami$/);
    expect(JSON.stringify({ name: searched[0]!.name, attributes: searched[0]!.attributes })).not.toContain("0555123456");
  });

  it("names the service store-app-starter on every span", () => {
    expect(exporter.getFinishedSpans()).toEqual([]);
    return withSpan("job.run", {}, async () => undefined).then(() => {
      expect(exporter.getFinishedSpans()[0]?.resource.attributes["service.name"]).toBe("store-app-starter");
    });
  });

  it("leaves withSpan for the job engine: a job run's span, failed with the error's class only", async () => {
    await expect(
      withSpan("job.run", { "job.kind": "orders.sync" }, async () => {
        throw new TypeError("customer 0555123456 not found");
      }),
    ).rejects.toThrow(TypeError);
    const [span] = exporter.getFinishedSpans();
    expect(span?.name).toBe("job.run");
    expect(span?.attributes).toMatchObject({ "job.kind": "orders.sync", "error.type": "TypeError" });
    expect(span?.status).toEqual({ code: 2, message: "TypeError" });
    expect(JSON.stringify(span?.events ?? [])).not.toContain("0555123456");
  });
});

describe("tracing off", () => {
  it("makes no span and writes no trace id", async () => {
    expect(tracingEnabled()).toBe(false);
    const lines: string[] = [];
    const undo = [setLogSink((line) => lines.push(line)), configureLog({ level: "info", format: "json" })];
    try {
      const seen = await withSpan("job.run", {}, async (span) => {
        log.info("inside");
        return span;
      });
      expect(seen).toBeUndefined();
    } finally {
      for (const restore of undo.reverse()) restore();
    }
    expect(JSON.parse(lines[0]!)).not.toHaveProperty("trace_id");
  });
});
