import { BlockList, isIPv4, isIPv6 } from "node:net";

/** The trusted proxies' addresses (TRUSTED_PROXIES, lib/env.ts) and the list lib/http/client-address.ts checks peers against. */

/**
 * Where a proxy in front of a Node host usually is, trusted when TRUSTED_PROXIES is unset in development: this
 * machine, a private network (a container's bridge, a cloud's VPC), link-local. A public address is never trusted by
 * default, and production behind proxies must list its own (lib/env.ts).
 */
export const PRIVATE_NETWORKS = ["127.0.0.0/8", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16", "::1/128", "fc00::/7", "fe80::/10"];

/** A CIDR (or a single address) as the list needs it, or null when it is not one. */
export function parseCidr(value: string): { address: string; prefix: number; family: "ipv4" | "ipv6" } | null {
  const [host, bits, extra] = value.trim().split("/") as [string, string?, string?];
  if (extra !== undefined) return null;
  const family = isIPv4(host) ? "ipv4" : isIPv6(host) ? "ipv6" : null;
  if (family === null) return null;
  const max = family === "ipv4" ? 32 : 128;
  if (bits === undefined) return { address: host, prefix: max, family };
  if (!/^\d{1,3}$/.test(bits) || Number(bits) > max) return null;
  return { address: host, prefix: Number(bits), family };
}

/** The trusted proxies' list from CIDRs already validated (lib/env.ts refuses any other). */
export function proxyList(cidrs: readonly string[]): BlockList {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const parsed = parseCidr(cidr);
    if (parsed) list.addSubnet(parsed.address, parsed.prefix, parsed.family);
  }
  return list;
}
