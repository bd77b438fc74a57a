import { subscribe, unsubscribe } from "node:diagnostics_channel";
import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * Node publishes every response it finishes on the public `http.server.response.finish` diagnostics channel, with
 * its request: the same source lib/http/peer-stamp.ts reads, so nothing of Next's is hooked.
 */
const RESPONSE_FINISH = "http.server.response.finish";

/** Next's own traffic (compiled chunks, dev tools, HMR): none of it is a page the developer waits for. */
const isFrameworkPath = (url: string | undefined) => url?.startsWith("/_next/") === true;

/**
 * Calls `start` once, after this process has answered its first page (a response below 500 to a request outside
 * `/_next/`, finished), or after `latestMs` when no page has been answered by then: in `next dev`, work the first
 * page does not need (the job engine, the database's open) waits for that page's compile instead of sharing the
 * two cores with it, and still starts when nobody asks for a page.
 */
export function afterFirstAnswer(start: () => void, latestMs: number): void {
  let started = false;
  const run = () => {
    if (started) return;
    started = true;
    clearTimeout(latest);
    unsubscribe(RESPONSE_FINISH, onFinish);
    start();
  };
  const onFinish = (message: unknown) => {
    const { request, response } = message as { request: IncomingMessage; response: ServerResponse };
    if (response.statusCode >= 500 || isFrameworkPath(request.url)) return;
    // Out of the publisher's loop: unsubscribing from within it, and starting work on the answer's own tick, would
    // not wait for that answer to be on its way.
    setImmediate(run);
  };
  subscribe(RESPONSE_FINISH, onFinish);
  const latest = setTimeout(run, latestMs);
  // Never what keeps a stopping server alive.
  latest.unref();
}
