import { connect } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { setLogSink } from "@/lib/log";
import { readLimitedBody, WEBHOOK_BODY_DEADLINE_MS } from "@/lib/webhooks/body";
import { startWebhookServer } from "@/lib/webhooks/node-server";
import { receiveWebhook, receiveWebhookOutcome } from "@/lib/webhooks/receive";
import { signatureHeaders } from "@/lib/webhooks/signature";

/**
 * What the receiver refuses before the body: headers that could never verify are answered without reading a byte,
 * and a body that does not arrive in time is answered 408 with the connection closed. Nothing here may reach the
 * database.
 */

const SECRET = "svcwhsec_" + "5e".repeat(24);
const NOW = new Date("2026-05-01T08:00:00.000Z");
const untouchable = new Proxy({} as Db, {
  get(_target, property) {
    throw new Error(`the database was touched (${String(property)})`);
  },
});

let restoreLog: () => void;
beforeEach(() => {
  restoreLog = setLogSink(() => {});
});
afterEach(() => restoreLog());

/** A body that records whether anyone read it, and never ends unless told to. */
function watchedBody(bytes: Uint8Array | null) {
  const seen = { pulls: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      seen.pulls += 1;
      if (bytes && seen.pulls === 1) controller.enqueue(bytes);
      // Otherwise: nothing more, ever (a sender trickling, or stalled).
    },
  }, { highWaterMark: 0 });
  return { stream, seen };
}

function request(headers: Record<string, string>, body: ReadableStream<Uint8Array>): Request {
  return new Request("http://app.test/api/webhooks", { method: "POST", headers, body, duplex: "half" } as RequestInit);
}

const t = Math.floor(NOW.getTime() / 1000);
const goodHeaders = signatureHeaders(SECRET, new TextEncoder().encode("{}"), t);

describe("webhook refusals before the body", () => {
  const cases: [string, Record<string, string>][] = [
    ["no signature header", { "x-svc-timestamp": String(t) }],
    ["no timestamp header", { "x-svc-signature": goodHeaders["x-svc-signature"] as string }],
    ["a malformed signature header", { ...goodHeaders, "x-svc-signature": "garbage" }],
    ["only malformed v1 values", { ...goodHeaders, "x-svc-signature": `t=${t},v1=xyz` }],
    ["a malformed timestamp", { "x-svc-timestamp": "soon", "x-svc-signature": "t=soon,v1=" + "a".repeat(64) }],
    ["timestamps that differ", { ...goodHeaders, "x-svc-timestamp": String(t - 1) }],
    ["a timestamp outside the tolerance", signatureHeaders(SECRET, new TextEncoder().encode("{}"), t - 301)],
    ["a timestamp ahead past the tolerance", signatureHeaders(SECRET, new TextEncoder().encode("{}"), t + 301)],
  ];
  for (const [name, headers] of cases) {
    it(`answers 401 to ${name} without reading the body`, async () => {
      const { stream, seen } = watchedBody(new TextEncoder().encode("{}"));
      const result = await receiveWebhookOutcome(request(headers, stream), { db: untouchable, secret: SECRET, now: () => NOW });
      expect(result).toEqual({ status: 401, body: { ok: false, error: "invalid_signature" } });
      expect(seen.pulls).toBe(0);
    });
  }

  it("reads the body once the headers could verify", async () => {
    const { stream, seen } = watchedBody(new TextEncoder().encode("{}"));
    const pending = receiveWebhookOutcome(request(goodHeaders, stream), {
      db: untouchable,
      secret: SECRET,
      now: () => NOW,
      bodyDeadlineMs: 50,
    });
    expect(await pending).toEqual({ status: 408, body: { ok: false, error: "body_timeout" }, close: true });
    expect(seen.pulls).toBeGreaterThan(0);
  });

  it("waits for a body that arrives a little later, within its deadline", async () => {
    const late = new ReadableStream<Uint8Array>({
      start(controller) {
        setTimeout(() => {
          controller.enqueue(new TextEncoder().encode("{}"));
          controller.close();
        }, 30);
      },
    });
    const result = await receiveWebhookOutcome(request({ ...goodHeaders, "x-svc-signature": `t=${t},v1=${"0".repeat(64)}` }, late), {
      db: untouchable,
      secret: SECRET,
      now: () => NOW,
    });
    // Read to the end, then judged: a signature that does not match, not a timeout.
    expect(result).toEqual({ status: 401, body: { ok: false, error: "invalid_signature" } });
  });

  it("gives a body 10 seconds, and answers 408 with the connection closed when it has not arrived", async () => {
    expect(WEBHOOK_BODY_DEADLINE_MS).toBe(10_000);
    const { stream } = watchedBody(new TextEncoder().encode("{"));
    const response = await receiveWebhook(request(goodHeaders, stream), { db: untouchable, secret: SECRET, now: () => NOW, bodyDeadlineMs: 50 });
    expect(response.status).toBe(408);
    expect(response.headers.get("connection")).toBe("close");
  });

  it("keeps connections open for every other answer", async () => {
    const { stream } = watchedBody(new TextEncoder().encode("{}"));
    const response = await receiveWebhook(request({}, stream), { db: untouchable, secret: SECRET, now: () => NOW });
    expect(response.status).toBe(401);
    expect(response.headers.get("connection")).toBeNull();
  });

  it("over HTTP, a trickled body gets 408 and its connection closed", async () => {
    const server = await startWebhookServer({ db: untouchable, secret: SECRET, bodyDeadlineMs: 200 });
    try {
      const fresh = signatureHeaders(SECRET, new TextEncoder().encode("{}"), Math.floor(Date.now() / 1000));
      const { port } = new URL(server.url);
      const socket = connect(Number(port), "127.0.0.1");
      let answer = "";
      socket.on("data", (chunk) => (answer += chunk.toString("utf8")));
      const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
      socket.write(
        [
          "POST /api/webhooks HTTP/1.1",
          "Host: 127.0.0.1",
          "Content-Type: application/json",
          "Content-Length: 2",
          `X-SVC-Timestamp: ${fresh["x-svc-timestamp"]}`,
          `X-SVC-Signature: ${fresh["x-svc-signature"]}`,
          "",
          "{",
        ].join("\r\n"),
      );
      await closed;
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(answer.toLowerCase()).toContain("connection: close");
    } finally {
      await server.close();
    }
  });
});

describe("readLimitedBody", () => {
  const post = (headers: Record<string, string>, body?: ReadableStream<Uint8Array>) =>
    new Request("http://app.test/api/webhooks", { method: "POST", headers, body, duplex: "half" } as RequestInit);

  it("refuses a Content-Length that is not a plain number, or over the limit, before reading", async () => {
    const never = () => watchedBody(null);
    const bad = never();
    expect(await readLimitedBody(post({ "content-length": "1e3" }, bad.stream), 10, 50)).toEqual({ ok: false, reason: "bad_length" });
    const large = never();
    expect(await readLimitedBody(post({ "content-length": "11" }, large.stream), 10, 50)).toEqual({ ok: false, reason: "too_large" });
    expect(bad.seen.pulls + large.seen.pulls).toBe(0);
  });

  it("reads no body as empty", async () => {
    expect(await readLimitedBody(post({}), 10, 50)).toEqual({ ok: true, body: Buffer.alloc(0) });
  });

  it("passes on a failure of the stream itself rather than calling it a timeout", async () => {
    const broken = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error("connection reset"));
      },
    });
    await expect(readLimitedBody(post({}, broken), 10, 1_000)).rejects.toThrow("connection reset");
  });
});
