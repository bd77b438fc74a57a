import { randomBytes } from "node:crypto";
import { subscribe } from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";

/**
 * The connection's peer, for route handlers that have no socket (Next gives them a Request). Node publishes every
 * request it parses on the public `http.server.request.start` diagnostics channel, with its socket, before the
 * server's own handler (Next) sees it. The subscriber below writes `<proof> <peer address>` into PEER_HEADER on
 * every request, replacing whatever a client sent under that name. The proof is random per process and lives only
 * in this process's memory: a header a client sent before the subscription existed, or on a host whose runtime
 * never publishes the channel, does not carry it and is never believed (lib/http/client-address.ts).
 */

export const PEER_HEADER = "x-app-peer-address";

/** Process-wide, not module-wide: Next bundles instrumentation.ts and the route handlers apart. Keyed by the header's name. */
const PROOF = Symbol.for(PEER_HEADER);
type WithProof = typeof globalThis & { [PROOF]?: string };

/** This process's proof, or null while no subscription stamps requests. */
export function peerProof(): string | null {
  return (globalThis as WithProof)[PROOF] ?? null;
}

/** Subscribes once per process (instrumentation.ts, Node.js runtime). */
export function stampPeers(): void {
  if (peerProof() !== null) return;
  const proof = randomBytes(24).toString("base64url");
  subscribe("http.server.request.start", (message) => {
    const { request, socket } = message as { request: IncomingMessage; socket: Socket };
    // A socket already closed has no remoteAddress: "undefined" is no address, so nobody is known.
    request.headers[PEER_HEADER] = `${proof} ${String(socket.remoteAddress)}`;
  });
  // Only now: a proof known before the subscription could vouch for a header nobody stamped.
  (globalThis as WithProof)[PROOF] = proof;
}

/** The peer a stamped header names, or null when the header is absent or not stamped by this process. */
export function stampedPeer(value: string | null, proof: string | null): string | null {
  if (value === null) return null;
  const [given, peer] = value.split(" ");
  // A null proof (nothing stamps requests) equals no string: nothing is believed.
  return given === proof && peer ? peer : null;
}
