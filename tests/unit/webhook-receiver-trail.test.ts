import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { configureLog, setLogSink } from "@/lib/log";
import { startTracing, stopTracing } from "@/lib/observability/tracing-setup";
import { receiveWebhookOutcome, type ReceiveDeps } from "@/lib/webhooks/receive";
import { sampleEnvelope, signDelivery } from "@/lib/webhooks/samples";
import { signatureHeaders } from "@/lib/webhooks/signature";

/**
 * What the receiver leaves for whoever runs the app, beside its answer. A delivery it refuses, or cannot apply,
 * leaves a line saying why (a wrong secret, a sender over the size cap, a database down); with tracing on, each step
 * it took is a span. Checked without a database: none of these deliveries gets as far as a committed row
 * (tests/integration/tracing.test.ts follows an accepted one down to its statements).
 */

const SECRET = "svcwhsec_" + "5e".repeat(24);
const NOW = new Date("2026-05-01T08:00:00.000Z");
const T = Math.floor(NOW.getTime() / 1000);

type Line = { level: string; msg: string } & Record<string, unknown>;
let lines: Line[] = [];
let restore: (() => void)[] = [];
const exporter = new InMemorySpanExporter();

beforeAll(() => {
  startTracing({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
});
afterAll(async () => {
  await stopTracing();
});
beforeEach(() => {
  lines = [];
  exporter.reset();
  restore = [setLogSink((line) => lines.push(JSON.parse(line) as Line)), configureLog({ level: "debug", format: "json" })];
});
afterEach(() => {
  for (const undo of restore.reverse()) undo();
});

/** A database that refuses every transaction, as a stopped server does. */
const downDb = {
  transaction: async () => {
    throw new Error("connection refused");
  },
} as unknown as Db;

function deps(extra: Partial<ReceiveDeps> = {}): ReceiveDeps {
  return { db: downDb, secret: SECRET, now: () => NOW, ...extra };
}

function post(body: Uint8Array, headers: Record<string, string>): Request {
  return new Request("http://app.test/api/webhooks", { method: "POST", body: new Uint8Array(body), headers });
}

/** Bytes signed with the right secret, whatever they hold. */
function signed(body: Uint8Array, extraHeaders: Record<string, string> = {}): Request {
  return post(body, { ...signatureHeaders(SECRET, body, T), ...extraHeaders });
}

describe("the receiver's log lines", () => {
  it("warns when the signature headers fail, with the reason", async () => {
    const body = new TextEncoder().encode("{}");
    const outcome = await receiveWebhookOutcome(post(body, { "x-svc-timestamp": String(T) }), deps());
    expect(outcome.status).toBe(401);
    expect(lines).toEqual([expect.objectContaining({ level: "warn", msg: "webhook refused: signature headers failed", reason: expect.any(String) })]);
  });

  it("warns when the body is over the cap, with the reason and the cap", async () => {
    const body = new TextEncoder().encode(JSON.stringify({ padding: "x".repeat(200) }));
    const outcome = await receiveWebhookOutcome(signed(body), deps({ maxBodyBytes: 64 }));
    expect(outcome.status).toBe(413);
    expect(lines).toEqual([
      expect.objectContaining({ level: "warn", msg: "webhook refused: body too large, too slow or malformed length", reason: "too_large", limit: 64 }),
    ]);
  });

  it("warns when a signed body is not JSON, with its size", async () => {
    const body = new TextEncoder().encode("{not json");
    const outcome = await receiveWebhookOutcome(signed(body), deps());
    expect(outcome.body).toEqual({ ok: false, error: "invalid_json" });
    expect(lines).toEqual([expect.objectContaining({ level: "warn", msg: "webhook refused: signed body is not JSON", bytes: body.length })]);
  });

  it("warns when a signed body is JSON but not an envelope, with the problem", async () => {
    const body = new TextEncoder().encode(JSON.stringify({ hello: "world" }));
    const outcome = await receiveWebhookOutcome(signed(body), deps());
    expect(outcome.body).toEqual({ ok: false, error: "invalid_envelope" });
    expect(lines).toEqual([expect.objectContaining({ level: "warn", msg: "webhook refused: signed body is not a valid envelope", problem: expect.any(String) })]);
  });

  it("logs an error when the database fails, and a warning when the unsigned event header differs from the signed name", async () => {
    const envelope = sampleEnvelope("app.uninstalled", { storeId: 101, installId: 7, at: NOW });
    const delivery = signDelivery(envelope, SECRET, { timestamp: T });
    const request = post(delivery.body, { ...delivery.headers, "x-svc-event": "order.created" });
    const outcome = await receiveWebhookOutcome(request, deps());
    expect(outcome).toMatchObject({ status: 503, body: { ok: false, error: "temporarily_unavailable" } });
    expect(lines).toEqual([
      expect.objectContaining({ level: "warn", msg: "X-SVC-Event header differs from the signed event name", header: "order.created" }),
      expect.objectContaining({ level: "error", msg: "webhook not applied: database failure, the platform will retry", error: "connection refused" }),
    ]);
  });
});

describe("the receiver's spans", () => {
  const names = () => exporter.getFinishedSpans().map((span) => span.name);

  it("checks the signature, parses and reads the envelope, each in its own span", async () => {
    const body = new TextEncoder().encode(JSON.stringify({ hello: "world" }));
    expect((await receiveWebhookOutcome(signed(body), deps())).status).toBe(400);
    expect(names()).toEqual(["webhook.signature", "webhook.parse", "webhook.envelope", "webhook.receive"]);
  });

  it("names the event on the transaction's span, also when the database fails", async () => {
    const delivery = signDelivery(sampleEnvelope("app.uninstalled", { storeId: 101, installId: 7, at: NOW }), SECRET, { timestamp: T });
    expect((await receiveWebhookOutcome(post(delivery.body, delivery.headers), deps())).status).toBe(503);
    const transaction = exporter.getFinishedSpans().find((span) => span.name === "webhook.transaction");
    expect(transaction?.attributes).toMatchObject({ "webhook.event": "app.uninstalled" });
  });
});
