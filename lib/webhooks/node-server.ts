import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { receiveWebhookOutcome, type ReceiveDeps } from "./receive";

/**
 * The receiver on a plain node:http server, outside Next: the integration tests point the emulator's dispatcher
 * at it, and it can serve webhooks from a separate worker process if a deployment wants one.
 * Every path is the webhook path; only POST is accepted.
 */

function toRequest(incoming: IncomingMessage, origin: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  const method = incoming.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  return new Request(new URL(incoming.url ?? "/", origin), {
    method,
    headers,
    body: hasBody ? (Readable.toWeb(incoming) as ReadableStream<Uint8Array>) : undefined,
    duplex: "half",
  } as RequestInit);
}

export type WebhookServer = { url: string; server: Server; close(): Promise<void> };

export async function startWebhookServer(deps: ReceiveDeps, options: { port?: number; host?: string } = {}): Promise<WebhookServer> {
  const host = options.host ?? "127.0.0.1";
  const server = createServer((incoming, response) => {
    const origin = `http://${incoming.headers.host ?? host}`;
    receiveWebhookOutcome(toRequest(incoming, origin), deps)
      .then((outcome) => {
        response.writeHead(outcome.status, {
          "content-type": "application/json",
          "cache-control": "no-store",
          ...(outcome.close ? { connection: "close" } : {}),
        });
        response.end(JSON.stringify(outcome.body));
      })
      .catch(() => {
        response.writeHead(500, { "content-type": "application/json" });
        response.end('{"ok":false,"error":"internal_error"}');
      });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
