import { headers } from "next/headers";
import { log, type Logger } from "@/lib/log";

/**
 * One id per incoming request, set by proxy.ts on the request (x-request-id) and echoed on the response, so a
 * merchant's report, a load balancer's access log and our log lines can be joined. An id sent by a trusted
 * front (load balancer, CDN) is kept when it looks like an id; anything else is replaced.
 */
export const REQUEST_ID_HEADER = "x-request-id";

const PLAUSIBLE_ID = /^[A-Za-z0-9._:-]{8,128}$/;

export function newRequestId(): string {
  return crypto.randomUUID();
}

/** The incoming id when it is safe to repeat in headers and logs, a new one otherwise. */
export function acceptOrCreateRequestId(incoming: string | null | undefined): string {
  return incoming && PLAUSIBLE_ID.test(incoming) ? incoming : newRequestId();
}

/**
 * The current request's id, for route handlers, server actions and server components. Routes outside the proxy
 * matcher (the webhook route) get a fresh id from the incoming header or a new one.
 */
export async function currentRequestId(): Promise<string> {
  try {
    return acceptOrCreateRequestId((await headers()).get(REQUEST_ID_HEADER));
  } catch {
    // Outside a request (scripts, tests): there is no request to name.
    return newRequestId();
  }
}

/** `log` bound to the current request id: `const logger = await requestLog(); logger.info("...", { storeId })`. */
export async function requestLog(fields: Record<string, unknown> = {}): Promise<Logger> {
  return log.with({ requestId: await currentRequestId(), ...fields });
}
