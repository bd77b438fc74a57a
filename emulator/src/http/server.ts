import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { apiError, requestIdFrom } from "../api/envelope";
import { deferDelay, takeFault, type Fault } from "../faults";
import { escapeHtml } from "../util";
import { errorPage, html, json, page } from "./respond";
import { createRouter } from "./router";
import type { EmuRequest, EmuResponse, EmulatorContext, Route } from "./types";

/** Bodies beyond this are refused before any handler runs (the category endpoints have their own lower limits). */
const MAX_BODY_BYTES = 1024 * 1024;

export function createEmulatorServer(ctx: EmulatorContext, routes: Route[], options: { quiet?: boolean } = {}): Server {
  const router = createRouter(routes);
  return createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // Never echo the error: a stack trace must not reach a page.
      if (!options.quiet) console.error(`[emulator] ${req.method} ${req.url?.split("?")[0]} failed: ${describe(error)}`);
      if (!res.headersSent) {
        res.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
        res.end("Internal emulator error");
      } else {
        res.destroy();
      }
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = (req.method ?? "GET").toUpperCase();
    const url = new URL(req.url ?? "/", ctx.config.origin);
    const body = await readBody(req);
    if (body === null) {
      send(res, tooLarge(url.pathname, req));
      return;
    }

    // The auth host sits behind a bot filter: a POST without User-Agent never reaches the OAuth endpoints.
    if (method === "POST" && url.pathname.startsWith("/oauth/") && !req.headers["user-agent"]) {
      send(res, challengePage());
      return;
    }

    const fault = takeFault(ctx, method, url.pathname);
    if (fault?.kind === "drop") {
      req.socket.destroy();
      return;
    }
    if (fault?.kind === "slow") {
      if (url.pathname.startsWith("/v1")) deferDelay(req, fault.delayMs);
      else await sleep(fault.delayMs);
    }
    if (fault?.kind === "status") {
      send(res, faultResponse(fault, url.pathname, req));
      return;
    }

    const request: EmuRequest = {
      method,
      url,
      headers: req.headers,
      params: {},
      body,
      cookies: parseCookies(req.headers.cookie),
      raw: req,
      rawResponse: res,
    };
    const match = router.match(method, url.pathname);
    let response: EmuResponse;
    if (!match) {
      response = router.hasPath(url.pathname)
        ? json(405, { error: "method_not_allowed" })
        : url.pathname.startsWith("/_emulator/")
          ? json(404, { error: "not_found" })
          : errorPage(404, "Not found", "There is nothing at this address.");
    } else {
      request.params = match.params;
      response = await match.handler(request, ctx);
    }

    if (fault?.kind === "commit-then-drop") {
      // The handler ran and its changes are saved; the answer is lost on the way back.
      req.socket.destroy();
      return;
    }
    if (!res.writableEnded && !res.destroyed) send(res, response);
  }
}

function send(res: ServerResponse, response: EmuResponse): void {
  res.writeHead(response.status, response.headers ?? {});
  res.end(response.body ?? "");
}

function readBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooBig = false;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooBig = true;
      else chunks.push(chunk);
    });
    req.on("end", () => resolve(tooBig ? null : Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function tooLarge(pathname: string, req: IncomingMessage): EmuResponse {
  if (pathname.startsWith("/v1")) {
    return apiError(413, "payload_too_large", "Payload too large", requestIdFrom(req.headers));
  }
  return json(413, { error: "payload_too_large" });
}

function faultResponse(fault: Extract<Fault, { kind: "status" }>, pathname: string, req: IncomingMessage): EmuResponse {
  const retryAfter = fault.retryAfter ?? (fault.status === 429 ? 1 : undefined);
  if (pathname.startsWith("/v1")) {
    const requestId = requestIdFrom(req.headers);
    if (fault.status === 429) {
      return apiError(429, "rate_limited", "Rate limit exceeded (injected fault)", requestId, { retryAfter });
    }
    const message =
      fault.status === 502 ? "Key lookup failed; retry shortly" : "Internal server error (injected fault)";
    return apiError(fault.status, "server_error", message, requestId, retryAfter === undefined ? {} : { retryAfter });
  }
  const headers: Record<string, string> = { "cache-control": "no-store" };
  if (retryAfter !== undefined) headers["retry-after"] = String(retryAfter);
  if (fault.status === 429) return oauthRateLimited(req.headers.accept, retryAfter ?? 1);
  return json(fault.status, { error: "server_error", error_description: "The code could not be checked" }, headers);
}

/** The OAuth endpoints' 429: JSON for clients that ask for it, an HTML page for browsers. */
export function oauthRateLimited(accept: string | undefined, retryAfter: number): EmuResponse {
  const headers = { "retry-after": String(retryAfter), "cache-control": "no-store" };
  if (accept?.includes("application/json")) {
    return json(
      429,
      { error: "rate_limited", error_description: `Too many requests; retry after ${retryAfter} seconds` },
      headers,
    );
  }
  return html(
    429,
    page("Too many requests", `<h1>Too many requests</h1><p class="error">Try again in ${escapeHtml(String(retryAfter))} seconds.</p>`),
    headers,
  );
}

function challengePage(): EmuResponse {
  return html(
    403,
    page(
      "Checking your browser",
      "<h1>Checking your browser</h1><p class=\"error\">This request was blocked by the security check. Requests to this host must send a User-Agent header.</p>",
    ),
  );
}

export function parseCookies(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {};
  if (!header) return cookies;
  for (const part of header.split(";")) {
    const index = part.indexOf("=");
    if (index === -1) continue;
    const name = part.slice(0, index).trim();
    const value = part.slice(index + 1).trim();
    try {
      cookies[name] = decodeURIComponent(value);
    } catch {
      cookies[name] = value;
    }
  }
  return cookies;
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : "unknown error";
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
