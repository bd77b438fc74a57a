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
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on("error", () => res.destroy());
      req.pipe(forward);
    }, proxy.delayMs);
  });
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
