import http from "node:http";
import { cronAuthorized } from "@/lib/sync/cron-auth";
import { METRICS_CONTENT_TYPE, renderMetrics } from "./registry";

/**
 * For a process that is not the Next server (a job worker): its own counters on a port of its own, in the same
 * format and behind the same bearer secret as /api/metrics. Prometheus scrapes it as one more target.
 *   const server = await serveMetrics({ port: 9464, host: env.WORKER_METRICS_HOST, secret: env.METRICS_SECRET });
 *
 * Loopback unless told otherwise: this is plain http, so on any other interface the bearer crosses the network in
 * clear. Opening it is the deployer's choice (WORKER_METRICS_HOST), made where the network is trusted.
 */
export const DEFAULT_METRICS_HOST = "127.0.0.1";

export async function serveMetrics(options: { port: number; host?: string; secret: string }): Promise<http.Server> {
  const server = http.createServer((request, response) => {
    void (async () => {
      if (request.method !== "GET" || (request.url ?? "").split("?")[0] !== "/metrics") {
        response.writeHead(404).end();
        return;
      }
      if (!cronAuthorized(request.headers.authorization ?? null, options.secret)) {
        response.writeHead(401, { "www-authenticate": "Bearer" }).end();
        return;
      }
      const body = await renderMetrics();
      response.writeHead(200, { "content-type": METRICS_CONTENT_TYPE, "cache-control": "no-store" }).end(body);
    })().catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host ?? DEFAULT_METRICS_HOST, resolve);
  });
  return server;
}
