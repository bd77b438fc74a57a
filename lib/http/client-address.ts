/**
 * The address of the client a request came from, for the install flow's per-address budgets.
 *
 * With TRUST_PROXY_HOPS = n ≥ 1, n proxies in front of the app each append the address they saw to
 * X-Forwarded-For, so the n-th entry from the right is the client's, and anything to its left is what the client
 * itself sent. With 0 the app is reached directly and the client is the connection's peer. Next.js gives route
 * handlers no socket and keeps a client's own X-Forwarded-For as sent, so the project patches Next
 * (patches/next+*.patch) to put the peer in PEER_HEADER on every request, overwriting whatever a client sent there.
 *
 * A request with fewer X-Forwarded-For entries than hops did not come through every proxy (a misconfiguration, or
 * someone reaching the app around them): it is counted as UNKNOWN_CLIENT, one shared budget, rather than under an
 * address the sender chose.
 */

export const PEER_HEADER = "x-app-peer-address";
export const UNKNOWN_CLIENT = "unknown";

export function clientAddress(headers: Headers, trustProxyHops: number): string {
  if (trustProxyHops <= 0) return normalise(headers.get(PEER_HEADER));
  const forwarded = headers.get("x-forwarded-for");
  if (forwarded === null) return UNKNOWN_CLIENT;
  const entries = forwarded
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  // Fewer entries than hops: at() finds nothing, and nothing is the unknown client.
  return normalise(entries.at(-trustProxyHops));
}

/** Bucket names must stay short and plain: an IPv4-mapped IPv6 peer is the IPv4 address; anything odd is unknown. */
function normalise(value: string | null | undefined): string {
  if (!value) return UNKNOWN_CLIENT;
  const address = value.toLowerCase().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "");
  return /^[0-9a-f.:]{2,45}$/.test(address) ? address : UNKNOWN_CLIENT;
}
