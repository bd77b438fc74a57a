import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Db } from "@/db/client";
import { setLogSink } from "@/lib/log";
import { WEBHOOK_MAX_BODY_BYTES } from "@/lib/webhooks/body";
import { DATABASE_DEADLINE_MS, receiveWebhook } from "@/lib/webhooks/receive";
import { sampleEnvelope, signDelivery } from "@/lib/webhooks/samples";
import { signatureHeaders } from "@/lib/webhooks/signature";

/**
 * The receiver's answers to everything refused before the database: status, the error code the platform's
 * delivery log shows, and `cache-control: no-store` on each. The database handed in fails the test if anything
 * touches it, which is the receiver's promise: nothing is read or stored before the signature and envelope pass.
 */
const SECRET = "svcwhsec_" + "5e".repeat(24);
const untouchable = new Proxy({} as Db, {
  get(_target, property) {
    throw new Error(`the database was touched (${String(property)}) before the delivery was accepted`);
  },
});

async function answer(request: Request, deps: { maxBodyBytes?: number; now?: () => Date } = {}) {
  const response = await receiveWebhook(request, { db: untouchable, secret: SECRET, ...deps });
  return { status: response.status, cacheControl: response.headers.get("cache-control"), json: (await response.json()) as unknown };
}

function post(body: Uint8Array | ReadableStream<Uint8Array>, headers: Record<string, string>) {
  return new Request("http://app.test/api/webhooks", { method: "POST", body, headers, duplex: "half" } as RequestInit);
}

function signed(envelope: Record<string, unknown>, options: { timestamp?: number } = {}) {
  const delivery = signDelivery(envelope, SECRET, options);
  return post(new Uint8Array(delivery.body), delivery.headers);
}

describe("webhook receiver answers before the database", () => {
  let restoreLog: () => void;
  beforeEach(() => {
    restoreLog = setLogSink(() => {});
  });
  afterEach(() => restoreLog());

  it("answers 405 method_not_allowed to anything but POST", async () => {
    for (const method of ["GET", "PUT", "DELETE"]) {
      const request = new Request("http://app.test/api/webhooks", { method, ...(method === "GET" ? {} : { body: "{}" }) });
      expect(await answer(request)).toEqual({ status: 405, cacheControl: "no-store", json: { ok: false, error: "method_not_allowed" } });
    }
  });

  it("answers 400 bad_content_length to a Content-Length that is not a plain number", async () => {
    const delivery = signDelivery(sampleEnvelope("webhook.verify"), SECRET);
    for (const length of ["abc", "-1", "12.5", "1e3", "9".repeat(16)]) {
      const request = post(new Uint8Array(delivery.body), { ...delivery.headers, "content-length": length });
      expect(await answer(request)).toEqual({ status: 400, cacheControl: "no-store", json: { ok: false, error: "bad_content_length" } });
    }
  });

  it("answers 413 payload_too_large past the limit, by default one MiB", async () => {
    const delivery = signDelivery(sampleEnvelope("webhook.verify"), SECRET);
    const small = post(new Uint8Array(delivery.body), { ...delivery.headers, "content-length": String(delivery.body.length) });
    expect(await answer(small, { maxBodyBytes: delivery.body.length - 1 })).toEqual({
      status: 413,
      cacheControl: "no-store",
      json: { ok: false, error: "payload_too_large" },
    });
    // No limit passed: the documented default applies, one byte over it is refused, the limit itself is not.
    // (Signature headers that could verify, or the body would not be looked at at all.)
    const over = post(new Uint8Array(WEBHOOK_MAX_BODY_BYTES + 1), { ...delivery.headers, "content-length": String(WEBHOOK_MAX_BODY_BYTES + 1) });
    expect((await answer(over)).json).toEqual({ ok: false, error: "payload_too_large" });
    const at = post(new Uint8Array(WEBHOOK_MAX_BODY_BYTES), { ...delivery.headers, "content-length": String(WEBHOOK_MAX_BODY_BYTES) });
    expect((await answer(at)).json).toEqual({ ok: false, error: "invalid_signature" });
  });

  it("answers 401 invalid_signature, whatever the reason, without saying which", async () => {
    const envelope = sampleEnvelope("webhook.verify");
    const good = signDelivery(envelope, SECRET);
    const refused = [
      post(new Uint8Array(good.body), { "content-type": "application/json" }),
      post(new Uint8Array(good.body), { ...good.headers, "x-svc-signature": "garbage" }),
      signed(envelope, { timestamp: Math.floor(Date.now() / 1000) - 301 }),
    ];
    for (const request of refused) {
      expect(await answer(request)).toEqual({ status: 401, cacheControl: "no-store", json: { ok: false, error: "invalid_signature" } });
    }
  });

  it("checks the timestamp against the clock it is given", async () => {
    const at = new Date("2020-02-02T10:00:00Z");
    const bad = { ...sampleEnvelope("order.created", { storeId: 101 }), id: "not-an-event-id" };
    const request = () => signed(bad, { timestamp: Math.floor(at.getTime() / 1000) });
    // Signed in 2020: refused on today's clock, past the signature on a clock set to 2020 (then refused for the
    // envelope, before the database).
    expect((await answer(request())).json).toEqual({ ok: false, error: "invalid_signature" });
    expect((await answer(request(), { now: () => at })).json).toEqual({ ok: false, error: "invalid_envelope" });
  });

  it("answers 400 invalid_json to a signed body that is not JSON, and 400 invalid_envelope to a wrong shape", async () => {
    const notJson = Buffer.from("{not json", "utf8");
    const headers = signatureHeaders(SECRET, notJson, Math.floor(Date.now() / 1000));
    expect(await answer(post(new Uint8Array(notJson), headers))).toEqual({
      status: 400,
      cacheControl: "no-store",
      json: { ok: false, error: "invalid_json" },
    });
    const noId = { ...sampleEnvelope("order.created", { storeId: 102, orderId: 5007 }), id: "not-an-event-id" };
    expect(await answer(signed(noId))).toEqual({ status: 400, cacheControl: "no-store", json: { ok: false, error: "invalid_envelope" } });
  });
});

describe("webhook receiver and a database that does not answer", () => {
  let restoreLog: () => void;
  beforeEach(() => {
    restoreLog = setLogSink(() => {});
  });
  afterEach(() => {
    vi.useRealTimers();
    restoreLog();
  });

  const answeringDb = (transaction: () => Promise<unknown>) => ({ transaction }) as unknown as Db;

  it("answers 503 temporarily_unavailable once the database deadline passes, so the platform redelivers", async () => {
    const started = Date.now();
    const response = await receiveWebhook(signed(sampleEnvelope("webhook.verify")), { db: answeringDb(() => new Promise(() => {})), secret: SECRET });
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ ok: false, error: "temporarily_unavailable" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(DATABASE_DEADLINE_MS - 50);
  });

  it("leaves no deadline timer behind once the database has answered", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const response = await receiveWebhook(signed(sampleEnvelope("webhook.verify")), {
      db: answeringDb(async () => ({ duplicate: true })),
      secret: SECRET,
    });
    expect(await response.json()).toEqual({ ok: true, duplicate: true });
    expect(vi.getTimerCount()).toBe(0);
  });
});
