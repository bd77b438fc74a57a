import { isIPv4, isIPv6, type BlockList } from "node:net";
import { PEER_HEADER, stampedPeer } from "./peer-stamp";

/**
 * The address of the client a request came from, for the install flow's budgets, and the networks it belongs to.
 *
 * Where it comes from, by deployment (docs/deploy.md, "The client address"):
 * - a host that guarantees its own header (Vercel: its edge overwrites `x-real-ip` and `X-Forwarded-For`): that
 *   header;
 * - otherwise the connection's peer, as lib/http/peer-stamp.ts stamped it. When the peer is a trusted proxy and
 *   TRUST_PROXY_HOPS ≥ 1, X-Forwarded-For is walked from the right, one entry per trusted hop, at most
 *   TRUST_PROXY_HOPS entries: the first entry that is not a trusted proxy is the client. A peer that is no trusted
 *   proxy is the client, whatever X-Forwarded-For it sent: a client reaching the app around its proxies cannot
 *   choose its address.
 * Null when the address cannot be known (no stamped peer, a malformed entry, a chain of proxies that runs out): such
 * requests get no per-address budget, only the app-wide token budget's open share (lib/oauth/install-budget.ts).
 */

export type AddressSource = {
  trustProxyHops: number;
  /** The proxies whose X-Forwarded-For is read. */
  trustedProxies: BlockList;
  /** The host overwrites the client's address headers itself. */
  hostHeader: boolean;
  /** This process's peer proof (lib/http/peer-stamp.ts), null when nothing stamps requests. */
  proof: string | null;
};

/**
 * One address as a header or socket gives it, in one spelling: lower case, ports and brackets removed
 * (`1.2.3.4:5678`, `[2001:db8::1]:443`), an IPv4-mapped IPv6 address as IPv4, a zone dropped. Anything that is not
 * an IP address (a host name, a bare hex string, `unknown`) is null.
 */
export function normaliseAddress(value: string | null | undefined): string | null {
  if (!value) return null;
  let address = value.trim().toLowerCase();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(address);
  if (bracketed) address = bracketed[1]!;
  else if (/^[\d.]+:\d{1,5}$/.test(address)) address = address.slice(0, address.lastIndexOf(":"));
  address = address.split("%")[0]!;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (mapped) address = mapped[1]!;
  if (isIPv4(address)) return address;
  return isIPv6(address) ? compressIPv6(expandIPv6(address)) : null;
}

/** The eight 16-bit groups of a valid IPv6 address (an IPv4 tail becomes the last two). */
function expandIPv6(address: string): number[] {
  const lastColon = address.lastIndexOf(":");
  const last = address.slice(lastColon + 1);
  let text = address;
  if (last.includes(".")) {
    const [a, b, c, d] = last.split(".").map(Number) as [number, number, number, number];
    text = `${address.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::") as [string, string?];
  const part = (piece: string | undefined) => (piece ? piece.split(":").map((group) => parseInt(group, 16)) : []);
  const left = part(head);
  const right = part(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** RFC 5952's spelling: the longest run of two or more zero groups becomes `::` (the first of equal runs). */
function compressIPv6(groups: number[]): string {
  let best = { start: -1, length: 1 };
  let run = { start: 0, length: 0 };
  groups.forEach((group, index) => {
    run = group === 0 ? { start: run.length === 0 ? index : run.start, length: run.length + 1 } : { start: 0, length: 0 };
    if (run.length > best.length) best = { ...run };
  });
  const hex = groups.map((group) => group.toString(16));
  if (best.start < 0) return hex.join(":");
  return `${hex.slice(0, best.start).join(":")}::${hex.slice(best.start + best.length).join(":")}`;
}

/**
 * The keys an address is budgeted under: the client (an IPv4 address, or the IPv6 /64 one subscriber is given), its
 * network (the IPv4 /24, the IPv6 /48) and the wider block around it (the IPv4 /16, the IPv6 /32: what one provider
 * or one cloud region hands out), so rotating addresses within one allocation, or one provider's, does not buy more.
 */
export function addressNetworks(address: string): { client: string; network: string; wide: string } {
  if (isIPv4(address)) {
    const [a, b, c] = address.split(".");
    return { client: address, network: `${a}.${b}.${c}.0/24`, wide: `${a}.${b}.0.0/16` };
  }
  const groups = expandIPv6(address);
  const prefix = (count: number) => `${compressIPv6(groups.map((group, index) => (index < count ? group : 0)))}/${count * 16}`;
  return { client: prefix(4), network: prefix(3), wide: prefix(2) };
}

function forwardedEntries(headers: Headers): string[] {
  return (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
}

function isTrusted(list: BlockList, address: string): boolean {
  return list.check(address, isIPv4(address) ? "ipv4" : "ipv6");
}

/**
 * The client's address (normalised) or null, and how the X-Forwarded-For walk went: `walked` is whether it started
 * (the peer is a trusted proxy and TRUST_PROXY_HOPS ≥ 1), `read` how many of the header's entries it took. A walk
 * that read fewer than TRUST_PROXY_HOPS entries stopped short: an outer proxy that is not in TRUSTED_PROXIES (a CDN's
 * edge) became "the client", or the header ran out, and every client behind that proxy shares one budget.
 */
export function walkForwarded(headers: Headers, source: AddressSource): { address: string | null; walked: boolean; read: number } {
  if (source.hostHeader) return { address: normaliseAddress(headers.get("x-real-ip") ?? forwardedEntries(headers).at(-1)), walked: false, read: 0 };
  let current = normaliseAddress(stampedPeer(headers.get(PEER_HEADER), source.proof));
  const entries = forwardedEntries(headers);
  const walked = source.trustProxyHops > 0 && current !== null && isTrusted(source.trustedProxies, current);
  let read = 0;
  for (let hop = 0; hop < source.trustProxyHops && current !== null && isTrusted(source.trustedProxies, current); hop += 1) {
    const entry = entries.pop();
    if (entry !== undefined) read += 1;
    // A trusted proxy with nothing left to name: the chain ran out before a client, so nobody is known.
    current = normaliseAddress(entry);
  }
  return { address: current, walked, read };
}

/** Whether a walk stopped before reading TRUST_PROXY_HOPS entries (walkForwarded). */
export function stoppedShort(walk: { walked: boolean; read: number }, source: AddressSource): boolean {
  return walk.walked && walk.read < source.trustProxyHops;
}

/** The client's address (normalised), or null when it cannot be known. */
export function clientAddress(headers: Headers, source: AddressSource): string | null {
  return walkForwarded(headers, source).address;
}

/** Whether a request carries forwarding headers from a peer that is not a trusted proxy (logged once, as a warning). */
export function forwardedByStranger(headers: Headers, source: AddressSource): boolean {
  if (source.hostHeader) return false;
  const peer = normaliseAddress(stampedPeer(headers.get(PEER_HEADER), source.proof));
  if (peer === null) return false;
  const entries = forwardedEntries(headers);
  // Next fills X-Forwarded-For with the peer itself when a client sent none: that forwards nothing.
  const forwarded = entries.length > 1 || (entries.length === 1 && normaliseAddress(entries[0]) !== peer);
  return forwarded && !(source.trustProxyHops > 0 && isTrusted(source.trustedProxies, peer));
}
