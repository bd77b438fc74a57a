import { createServer, request as httpRequest } from "node:http";
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

function get(path: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path }, (res) => {
      res.resume();
      res.on("end", resolve);
    });
    req.on("error", reject);
    req.end();
  });
}

/** Lets the answer's finish event, and the start it schedules, run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe("afterFirstAnswer", () => {
  it("starts once, after the first page answered below 500, not for Next's own paths or a server error", async () => {
    let starts = 0;
    afterFirstAnswer(() => (starts += 1), 60_000);
    await get("/_next/static/chunks/app.js");
    await get("/_next/webpack-hmr?page=/");
    await get("/?status=500");
    await get("/?status=503");
    await settle();
    expect(starts).toBe(0);

    // A redirect or a not-found page is an answer too: the compile it waited for is done.
    await get("/?status=307");
    await settle();
    expect(starts).toBe(1);
    await get("/");
    await get("/stores");
    await settle();
    expect(starts).toBe(1);
  });

  it("starts after its latest time when no page is answered, and only once", async () => {
    let starts = 0;
    afterFirstAnswer(() => (starts += 1), 30);
    await get("/?status=500");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(starts).toBe(1);
    await get("/");
    await settle();
    expect(starts).toBe(1);
  });
});
