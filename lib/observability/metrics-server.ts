import http from "node:http";
import { cronAuthorized } from "@/lib/sync/cron-auth";
import { renderMetrics } from "./registry";

/**
 * For a process that is not the Next server (a job worker): its own counters on a port of its own, in the same
 * format and behind the same bearer secret as /api/metrics. Prometheus scrapes it as one more target.
 *   const server = await serveMetrics({ port: 9464, secret: env.METRICS_SECRET });
 */
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
      response.writeHead(200, { "content-type": "text/plain; version=0.0.4; charset=utf-8", "cache-control": "no-store" }).end(body);
    })().catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host ?? "0.0.0.0", resolve);
  });
  return server;
}
