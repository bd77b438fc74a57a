import { createServer, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DatabaseDeadlineError, openDatabase, rawQuery, type DatabaseHandle } from "@/db/client";
import { ABANDONED_LIMIT } from "@/db/statement-deadline";

/**
 * A statement its caller gave up on stays with postgres.js (db/statement-deadline.ts: withdrawing one that is
 * opening a connection strands that connection). On a server that accepts connections and never answers (a hung
 * host, a dead load balancer), the driver drains that backlog one statement per connect timeout (2 s): the bound
 * keeps a long outage from piling up statements without end. Real driver, real sockets; no PostgreSQL needed.
 */
describe("statements given up on a failing pool", () => {
  let blackHole: Server;
  let port: number;
  const sockets = new Set<Socket>();
  let handle: DatabaseHandle;

  beforeAll(async () => {
    blackHole = createServer((socket) => {
      sockets.add(socket);
      socket.on("error", () => {});
      socket.on("close", () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => blackHole.listen(0, "127.0.0.1", resolve));
    port = (blackHole.address() as { port: number }).port;
    handle = await openDatabase({ url: `postgres://postgres@127.0.0.1:${port}/postgres`, maxConnections: 1 });
  });

  afterAll(async () => {
    await handle?.close().catch(() => {});
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => blackHole?.close(resolve));
  });

  it("are kept to ABANDONED_LIMIT: past it, a new statement is refused at once instead of joining the queue", async () => {
    const query = rawQuery(handle.db);
    // Given up at the slow pool's 4 × 100 ms: nothing has failed yet, the first connect is still waiting.
    const first = await Promise.all(
      Array.from({ length: ABANDONED_LIMIT }, () => query("select 1", [], { deadlineMs: 100 }).then(() => null, (error: unknown) => error)),
    );
    for (const error of first) expect(error).toBeInstanceOf(DatabaseDeadlineError);

    // While the pool has heard no failure, a new statement still waits for its deadline.
    const started = performance.now();
    await expect(query("select 1", [], { deadlineMs: 100 })).rejects.toBeInstanceOf(DatabaseDeadlineError);
    expect(performance.now() - started).toBeGreaterThanOrEqual(100);

    // The first connect times out (2 s): the pool is failing, and the backlog is full. Waited for as the event it is
    // (a statement refused at once, which its message names), not for a fixed time a loaded machine can overrun.
    const atOnce = /unreachable and \d+ statements already wait/;
    const attempt = () => query("select 1", [], { deadlineMs: 100 }).then(() => null, (error: unknown) => error as Error);
    while (!atOnce.test((await attempt())?.message ?? "")) await new Promise((resolve) => setTimeout(resolve, 100));
    // Refused at once however long its own deadline: the refusal's path, not its deadline's (which says "did not
    // answer within"), is the message; no clock judges it.
    const refused = await query("select 1", [], { deadlineMs: 2_000 }).then(() => null, (error: unknown) => error);
    expect(refused).toBeInstanceOf(DatabaseDeadlineError);
    expect((refused as Error).message).toMatch(atOnce);
  }, 60_000);
});
