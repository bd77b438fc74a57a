import { describe, expect, it } from "vitest";
import { parseCidr, PRIVATE_NETWORKS, proxyList } from "@/lib/http/cidr";
import { addressNetworks, clientAddress, forwardedByStranger, normaliseAddress, stoppedShort, walkForwarded, type AddressSource } from "@/lib/http/client-address";
import { PEER_HEADER, stampedPeer } from "@/lib/http/peer-stamp";

const PROOF = "proof-of-this-process";
const headers = (values: Record<string, string>) => new Headers(values);
/** A request as Node's server and lib/http/peer-stamp.ts hand it to a route: the peer stamped with the proof. */
const from = (peer: string, extra: Record<string, string> = {}) => headers({ ...extra, [PEER_HEADER]: `${PROOF} ${peer}` });

const direct: AddressSource = { trustProxyHops: 0, trustedProxies: proxyList(PRIVATE_NETWORKS), hostHeader: false, proof: PROOF };
const oneProxy: AddressSource = { ...direct, trustProxyHops: 1, trustedProxies: proxyList(["10.0.0.0/8"]) };
const twoProxies: AddressSource = { ...direct, trustProxyHops: 2, trustedProxies: proxyList(["10.0.0.0/8", "192.0.2.0/24"]) };
const vercel: AddressSource = { ...direct, hostHeader: true, proof: null };

describe("normaliseAddress", () => {
  it("strips ports and brackets, and writes each address one way", () => {
    expect(normaliseAddress("1.2.3.4:5678")).toBe("1.2.3.4");
    expect(normaliseAddress("[::1]:80")).toBe("::1");
    expect(normaliseAddress("[2001:DB8::1]")).toBe("2001:db8::1");
    expect(normaliseAddress(" [2001:db8:0:0:0:0:0:1]:65535 ")).toBe("2001:db8::1");
    expect(normaliseAddress("::FFFF:203.0.113.7")).toBe("203.0.113.7");
    expect(normaliseAddress("[::ffff:203.0.113.7]:443")).toBe("203.0.113.7");
    expect(normaliseAddress("fe80::1%eth0")).toBe("fe80::1");
    expect(normaliseAddress("fe80::1.2.3.4%eth0")).toBe("fe80::102:304");
    expect(normaliseAddress("::ffff:203.10.113.70")).toBe("203.10.113.70");
    expect(normaliseAddress("1::ffff:1.2.3.4")).toBe("1::ffff:102:304");
    expect(normaliseAddress("64:ff9b::192.10.22.33")).toBe("64:ff9b::c00a:1621");
    expect(normaliseAddress("2001:db8:1::2:3:4:5")).toBe("2001:db8:1:0:2:3:4:5");
    expect(normaliseAddress("64:ff9b::1.2.3.4")).toBe("64:ff9b::102:304");
    expect(normaliseAddress("2001:db8:0:0:1:0:0:1")).toBe("2001:db8::1:0:0:1");
    expect(normaliseAddress("2001:0:0:1:0:0:0:1")).toBe("2001:0:0:1::1");
    expect(normaliseAddress("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2:3:4:5:6");
    expect(normaliseAddress("2001:db8:1:2:3:4:5:0")).toBe("2001:db8:1:2:3:4:5:0");
    expect(normaliseAddress("0:0:0:0:0:0:0:0")).toBe("::");
    expect(normaliseAddress("1:0:0:2:0:0:0:3")).toBe("1:0:0:2::3");
  });

  it("refuses what is not an IP address", () => {
    for (const odd of [null, undefined, "", "unknown", "deadbeef", "abc", "1.2.3", "1.2.3.4.5", "256.1.1.1", "01.2.3.4", "host.example", "[1.2.3.4]x", "1.2.3.4:", "1.2.3.4:123456", "x[::1]:80", "::1:80:", "[::1]:", "2001:db8::g", "::ffff:1.2.3.4.5", "evil:bucket/name"]) {
      expect(normaliseAddress(odd), String(odd)).toBeNull();
    }
  });
});

describe("addressNetworks", () => {
  it("budgets IPv4 by address under its /24 and /16, IPv6 by /64 under its /48 and /32", () => {
    expect(addressNetworks("203.0.113.7")).toEqual({ client: "203.0.113.7", network: "203.0.113.0/24", wide: "203.0.0.0/16" });
    expect(addressNetworks("10.255.1.200")).toEqual({ client: "10.255.1.200", network: "10.255.1.0/24", wide: "10.255.0.0/16" });
    expect(addressNetworks("2001:db8:aa:bb:1:2:3:4")).toEqual({ client: "2001:db8:aa:bb::/64", network: "2001:db8:aa::/48", wide: "2001:db8::/32" });
    expect(addressNetworks("2001:db8:aa:bb::ffff")).toEqual(addressNetworks("2001:db8:aa:bb:ffff:ffff:ffff:1"));
    expect(addressNetworks("2001:db8:ffff::1").wide).toBe(addressNetworks("2001:db8:1::1").wide);
    expect(addressNetworks("2001:db9::1").wide).toBe("2001:db9::/32");
    expect(addressNetworks("::1")).toEqual({ client: "::/64", network: "::/48", wide: "::/32" });
  });
});

describe("parseCidr and the trusted proxies' list", () => {
  it("reads addresses and CIDRs of both families and refuses the rest", () => {
    expect(parseCidr("10.0.0.0/8")).toEqual({ address: "10.0.0.0", prefix: 8, family: "ipv4" });
    expect(parseCidr(" 192.0.2.1 ")).toEqual({ address: "192.0.2.1", prefix: 32, family: "ipv4" });
    expect(parseCidr("2001:db8::/32")).toEqual({ address: "2001:db8::", prefix: 32, family: "ipv6" });
    expect(parseCidr("::1")).toEqual({ address: "::1", prefix: 128, family: "ipv6" });
    expect(parseCidr("::/128")).toEqual({ address: "::", prefix: 128, family: "ipv6" });
    expect(parseCidr("0.0.0.0/32")).toEqual({ address: "0.0.0.0", prefix: 32, family: "ipv4" });
    for (const odd of ["10.0.0.0/33", "::/129", "10.0.0.0/8/8", "10.0.0.0/", "10.0.0.0/x", "10.0.0.0/0008", "example.com/8", "10.0.0.0/ 8", ""]) {
      expect(parseCidr(odd), odd).toBeNull();
    }
  });

  it("trusts what it lists and nothing else", () => {
    const list = proxyList(["10.0.0.0/8", "2001:db8::/32", "192.0.2.9"]);
    expect(list.check("10.255.0.1", "ipv4")).toBe(true);
    expect(list.check("11.0.0.1", "ipv4")).toBe(false);
    expect(list.check("2001:db8:ffff::1", "ipv6")).toBe(true);
    expect(list.check("2001:db9::1", "ipv6")).toBe(false);
    expect(list.check("192.0.2.9", "ipv4")).toBe(true);
    expect(list.check("192.0.2.10", "ipv4")).toBe(false);
    // An entry that is no CIDR (lib/env.ts refuses it first) is skipped, never half-read.
    const skipping = proxyList(["not-a-cidr", "10.0.0.0/33", "192.0.2.0/24"]);
    expect(skipping.check("192.0.2.1", "ipv4")).toBe(true);
    expect(skipping.check("10.0.0.1", "ipv4")).toBe(false);
  });

  it("trusts loopback and private networks by default, never a public address", () => {
    const list = proxyList(PRIVATE_NETWORKS);
    for (const inside of ["127.0.0.1", "10.1.2.3", "172.31.255.255", "192.168.0.1", "169.254.1.1"]) expect(list.check(inside, "ipv4"), inside).toBe(true);
    for (const inside of ["::1", "fd00::1", "fe80::1"]) expect(list.check(inside, "ipv6"), inside).toBe(true);
    for (const outside of ["172.32.0.1", "8.8.8.8", "100.64.0.1"]) expect(list.check(outside, "ipv4"), outside).toBe(false);
    expect(list.check("2001:db8::1", "ipv6")).toBe(false);
  });
});

describe("the stamped peer", () => {
  it("is believed only with this process's proof", () => {
    expect(stampedPeer(`${PROOF} 203.0.113.7`, PROOF)).toBe("203.0.113.7");
    expect(stampedPeer("203.0.113.7", PROOF)).toBeNull();
    expect(stampedPeer(`other 203.0.113.7`, PROOF)).toBeNull();
    expect(stampedPeer(`${PROOF} `, PROOF)).toBeNull();
    expect(stampedPeer(`${PROOF}`, PROOF)).toBeNull();
    expect(stampedPeer(`${PROOF} undefined`, PROOF)).toBe("undefined");
    expect(normaliseAddress(stampedPeer(`${PROOF} undefined`, PROOF))).toBeNull();
    expect(stampedPeer(null, PROOF)).toBeNull();
    // Nothing stamps requests in this process: no header is believed, whatever it says.
    expect(stampedPeer(`${PROOF} 203.0.113.7`, null)).toBeNull();
  });
});

describe("clientAddress", () => {
  it("reached directly (bare next start): the peer, never a header the client sent", () => {
    const forged = { "x-forwarded-for": "198.51.100.1", "x-real-ip": "198.51.100.2" };
    expect(clientAddress(from("203.0.113.7", forged), direct)).toBe("203.0.113.7");
    expect(clientAddress(from("::ffff:203.0.113.7"), direct)).toBe("203.0.113.7");
    // A client's own peer header, unstamped: nobody is known.
    expect(clientAddress(headers({ [PEER_HEADER]: "198.51.100.1", ...forged }), direct)).toBeNull();
    expect(clientAddress(headers(forged), direct)).toBeNull();
    expect(clientAddress(from("203.0.113.7"), { ...direct, proof: null })).toBeNull();
  });

  it("a client sending X-Forwarded-For straight to an app behind a proxy is its peer", () => {
    expect(clientAddress(from("203.0.113.7", { "x-forwarded-for": "198.51.100.1" }), oneProxy)).toBe("203.0.113.7");
    expect(clientAddress(from("203.0.113.7", { "x-forwarded-for": "10.0.0.1, 198.51.100.1" }), twoProxies)).toBe("203.0.113.7");
  });

  it("behind one trusted proxy: the entry it appended, whatever the client wrote to its left", () => {
    expect(clientAddress(from("10.0.0.2", { "x-forwarded-for": "1.1.1.1, 198.51.100.1" }), oneProxy)).toBe("198.51.100.1");
    expect(clientAddress(from("10.0.0.2", { "x-forwarded-for": "1.2.3.4:5678" }), oneProxy)).toBe("1.2.3.4");
    expect(clientAddress(from("10.0.0.2", { "x-forwarded-for": "[::1]:80" }), oneProxy)).toBe("::1");
    // One hop: a trusted address in the client's position is still the client.
    expect(clientAddress(from("10.0.0.2", { "x-forwarded-for": "1.1.1.1, 10.0.0.9" }), oneProxy)).toBe("10.0.0.9");
  });

  it("behind two proxies: walks past trusted entries, and a client going around the first cannot choose", () => {
    expect(clientAddress(from("10.0.0.2", { "x-forwarded-for": "1.1.1.1, 198.51.100.1, 192.0.2.5" }), twoProxies)).toBe("198.51.100.1");
    // Straight to the inner proxy: it appended the client's own address, the client's entry to its left is ignored.
    expect(clientAddress(from("10.0.0.2", { "x-forwarded-for": "1.1.1.1, 198.51.100.1" }), twoProxies)).toBe("198.51.100.1");
    // Never more entries than hops.
    expect(clientAddress(from("10.0.0.2", { "x-forwarded-for": "198.51.100.1, 192.0.2.6, 192.0.2.5" }), twoProxies)).toBe("192.0.2.6");
  });

  it("is unknown when the proxies' chain runs out or an entry is not an address", () => {
    expect(clientAddress(from("10.0.0.2"), oneProxy)).toBeNull();
    expect(clientAddress(from("10.0.0.2", { "x-forwarded-for": " , " }), oneProxy)).toBeNull();
    expect(clientAddress(from("10.0.0.2", { "x-forwarded-for": "192.0.2.5" }), twoProxies)).toBeNull();
    expect(clientAddress(from("10.0.0.2", { "x-forwarded-for": "1.2.3.4, evil:bucket/name" }), oneProxy)).toBeNull();
    expect(clientAddress(from("10.0.0.2", { "x-forwarded-for": "deadbeef" }), oneProxy)).toBeNull();
    // Empty entries (a stray comma) are not hops.
    expect(clientAddress(from("10.0.0.2", { "x-forwarded-for": "198.51.100.1, ,192.0.2.5" }), twoProxies)).toBe("198.51.100.1");
    expect(clientAddress(from("10.0.0.2", { "x-forwarded-for": "198.51.100.1,,192.0.2.5" }), twoProxies)).toBe("198.51.100.1");
    expect(clientAddress(from("10.0.0.2", { "x-forwarded-for": "198.51.100.1" }), { ...oneProxy, proof: null })).toBeNull();
    expect(clientAddress(from("2001:db8::1", { "x-forwarded-for": "198.51.100.1" }), { ...oneProxy, trustedProxies: proxyList(["2001:db8::/32"]) })).toBe("198.51.100.1");
  });

  it("on Vercel: the edge's x-real-ip, else its X-Forwarded-For; the peer and hops play no part", () => {
    expect(clientAddress(headers({ "x-real-ip": "203.0.113.7", "x-forwarded-for": "198.51.100.1" }), vercel)).toBe("203.0.113.7");
    expect(clientAddress(headers({ "x-forwarded-for": "198.51.100.1, 198.51.100.2" }), vercel)).toBe("198.51.100.2");
    expect(clientAddress(from("10.0.0.2", { "x-forwarded-for": "198.51.100.1" }), { ...vercel, proof: PROOF, trustProxyHops: 2 })).toBe("198.51.100.1");
    expect(clientAddress(headers({}), vercel)).toBeNull();
  });
});

describe("walkForwarded: how far the X-Forwarded-For walk went", () => {
  const walk = (peer: string, forwarded: string | null, source: AddressSource) => {
    const result = walkForwarded(from(peer, forwarded === null ? {} : { "x-forwarded-for": forwarded }), source);
    return { ...result, short: stoppedShort(result, source) };
  };

  it("reads as many entries as hops when every proxy is trusted: not short", () => {
    expect(walk("10.0.0.2", "198.51.100.1", oneProxy)).toEqual({ address: "198.51.100.1", walked: true, read: 1, short: false });
    expect(walk("10.0.0.2", "1.1.1.1, 198.51.100.1, 192.0.2.5", twoProxies)).toEqual({ address: "198.51.100.1", walked: true, read: 2, short: false });
    // A malformed last entry is read: the walk was whole, the address is unknown.
    expect(walk("10.0.0.2", "deadbeef", oneProxy)).toEqual({ address: null, walked: true, read: 1, short: false });
  });

  it("stops short at an outer proxy that is not trusted (a CDN's edge), or when the header runs out", () => {
    const cdnUntrusted: AddressSource = { ...twoProxies, trustedProxies: proxyList(["10.0.0.0/8"]) };
    expect(walk("10.0.0.2", "198.51.100.1, 203.0.113.50", cdnUntrusted)).toEqual({ address: "203.0.113.50", walked: true, read: 1, short: true });
    expect(walk("10.0.0.2", "192.0.2.5", twoProxies)).toEqual({ address: null, walked: true, read: 1, short: true });
    expect(walk("10.0.0.2", null, oneProxy)).toEqual({ address: null, walked: true, read: 0, short: true });
    expect(walk("10.0.0.2", " , ", oneProxy)).toEqual({ address: null, walked: true, read: 0, short: true });
  });

  it("does not walk from a peer that is no trusted proxy, with no hops, or on Vercel: never short", () => {
    expect(walk("203.0.113.7", "198.51.100.1", oneProxy)).toEqual({ address: "203.0.113.7", walked: false, read: 0, short: false });
    expect(walk("10.0.0.2", "198.51.100.1", { ...direct, trustedProxies: proxyList(["10.0.0.0/8"]) })).toEqual({ address: "10.0.0.2", walked: false, read: 0, short: false });
    const onVercel = walkForwarded(headers({ "x-real-ip": "203.0.113.7" }), { ...vercel, trustProxyHops: 2 });
    expect(onVercel).toEqual({ address: "203.0.113.7", walked: false, read: 0 });
    expect(stoppedShort(onVercel, { ...vercel, trustProxyHops: 2 })).toBe(false);
    expect(walkForwarded(headers({ "x-forwarded-for": "198.51.100.1" }), oneProxy)).toEqual({ address: null, walked: false, read: 0 });
  });
});

describe("forwardedByStranger", () => {
  it("says when a forwarding header came from a peer that is no trusted proxy", () => {
    expect(forwardedByStranger(from("203.0.113.7", { "x-forwarded-for": "198.51.100.1" }), oneProxy)).toBe(true);
    expect(forwardedByStranger(from("10.0.0.2", { "x-forwarded-for": "198.51.100.1" }), oneProxy)).toBe(false);
    expect(forwardedByStranger(from("10.0.0.2", { "x-forwarded-for": "198.51.100.1" }), direct)).toBe(true);
    // Next fills X-Forwarded-For with the peer when a client sent none: that is no forwarding.
    expect(forwardedByStranger(from("::ffff:203.0.113.7", { "x-forwarded-for": "::ffff:203.0.113.7" }), oneProxy)).toBe(false);
    expect(forwardedByStranger(from("203.0.113.7"), oneProxy)).toBe(false);
    expect(forwardedByStranger(from("203.0.113.7", { "x-forwarded-for": "198.51.100.1, 203.0.113.7" }), oneProxy)).toBe(true);
    expect(forwardedByStranger(headers({ "x-forwarded-for": "198.51.100.1" }), oneProxy)).toBe(false);
    expect(forwardedByStranger(headers({ "x-forwarded-for": "198.51.100.1" }), vercel)).toBe(false);
    expect(forwardedByStranger(from("203.0.113.7", { "x-forwarded-for": "198.51.100.1" }), { ...vercel, proof: PROOF })).toBe(false);
  });
});
