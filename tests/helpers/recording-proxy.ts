import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A plain HTTP proxy in front of the emulator that notes every call's path and query, so a test can tell which
 * page of a list a client asked for, even when the client runs in another process. `delayMs` slows every call
 * (a slow platform, so a worker can be killed between two pages).
 */
export type RecordingProxy = { url: string; calls: URL[]; delayMs: number; close(): Promise<void> };

export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const upstream = new URL(target);
  const proxy: RecordingProxy = { url: "", calls: [], delayMs: 0, close: async () => {} };
  const server: Server = createServer((req, res) => {
    proxy.calls.push(new URL(req.url ?? "/", upstream));
    setTimeout(() => {
      const forward = httpRequest(
        // A connection of its own per call: kept alive, the emulator's idle timeout raced this side in the same way.
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host }, agent: false },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on("error", () => res.destroy());
      req.pipe(forward);
    }, proxy.delayMs);
  });
  // Idle connections from the client are closed by the client, never by the proxy. Both run in the test's one event loop: after a
  // stall (a loaded machine, an embedded database's query) the timers run before the reads, so the proxy's own idle
  // timeout (Node's default, 5 s) fired on a kept-alive connection whose next request the client had already sent,
  // and the client met ECONNRESET (the re-install test's old run failed there for good, on its first page).
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}

/** The order-list calls among them, each as the cursor it asked for ("" for the first page). */
export function orderPageCursors(calls: readonly URL[]): string[] {
  return calls.filter((call) => call.pathname === "/v1/orders").map((call) => call.searchParams.get("cursor") ?? "");
}
