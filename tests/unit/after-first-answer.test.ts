import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { createServer, request as httpRequest, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { afterFirstAnswer } from "@/lib/http/after-first-answer";

/**
 * What `next dev` starts after its first page (instrumentation.ts), on a real Node http server as Next's own: the
 * answers Node publishes decide, the framework's own traffic and server errors do not.
 */

const server = createServer((req, res) => {
  const status = Number(new URL(req.url ?? "/", "http://localhost").searchParams.get("status") ?? 200);
  res.statusCode = status;
  res.end("ok");
});
let port = 0;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** Numbers each request, so the finish observed is this request's own. */
let requests = 0;

/**
 * Resolves once the server has published this request's finished answer and the start that answer may schedule
 * (one `setImmediate` later) has had its turn: two turns of the check phase, whatever order the subscribers run in.
 */
function get(path: string): Promise<void> {
  const marker = `${path}${path.includes("?") ? "&" : "?"}request=${(requests += 1)}`;
  const published = new Promise<void>((resolve) => {
    const onFinish = (message: unknown) => {
      if ((message as { request: IncomingMessage }).request.url !== marker) return;
      unsubscribe("http.server.response.finish", onFinish);
      setImmediate(() => setImmediate(resolve));
    };
    subscribe("http.server.response.finish", onFinish);
  });
  const received = new Promise<void>((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path: marker }, (res) => {
      res.resume();
      res.on("end", resolve);
    });
    req.on("error", reject);
    req.end();
  });
  return Promise.all([published, received]).then(() => undefined);
}

describe("afterFirstAnswer", () => {
  it("starts once, after the first page answered below 500, not for Next's own paths or a server error", async () => {
    let starts = 0;
    afterFirstAnswer(() => (starts += 1), 60_000);
    await get("/_next/static/chunks/app.js");
    await get("/_next/webpack-hmr?page=/");
    await get("/?status=500");
    await get("/?status=503");
    expect(starts).toBe(0);

    // A redirect or a not-found page is an answer too: the compile it waited for is done.
    await get("/?status=307");
    expect(starts).toBe(1);
    await get("/");
    await get("/stores");
    expect(starts).toBe(1);
  });

  it("starts after its latest time when no page is answered, and only once", async () => {
    let starts = 0;
    const latestMs = 30;
    const called = Date.now();
    // Awaited rather than slept on: a loaded machine may run the timer late, never early.
    const started = new Promise<number>((resolve) => afterFirstAnswer(() => resolve((starts += 1)), latestMs));
    await get("/?status=500");
    expect(await started).toBe(1);
    expect(Date.now() - called).toBeGreaterThanOrEqual(latestMs - 1);
    await get("/");
    expect(starts).toBe(1);
  });
});
