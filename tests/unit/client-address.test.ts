import { describe, expect, it } from "vitest";
import { clientAddress, PEER_HEADER, UNKNOWN_CLIENT } from "@/lib/http/client-address";

const headers = (values: Record<string, string>) => new Headers(values);

describe("clientAddress", () => {
  it("with 0 hops is the connection's peer, whatever X-Forwarded-For the client sent", () => {
    expect(clientAddress(headers({ [PEER_HEADER]: "203.0.113.7", "x-forwarded-for": "198.51.100.1" }), 0)).toBe("203.0.113.7");
    expect(clientAddress(headers({ [PEER_HEADER]: "::ffff:203.0.113.7" }), 0)).toBe("203.0.113.7");
    expect(clientAddress(headers({ [PEER_HEADER]: "2001:DB8::1" }), 0)).toBe("2001:db8::1");
    expect(clientAddress(headers({ "x-forwarded-for": "198.51.100.1" }), 0)).toBe(UNKNOWN_CLIENT);
    expect(clientAddress(headers({}), -1)).toBe("unknown");
  });

  it("keeps only plain addresses: an IPv4-mapped peer is its IPv4 address, nothing else is rewritten", () => {
    const peer = (value: string) => clientAddress(headers({ [PEER_HEADER]: value }), 0);
    expect(peer("::FFFF:203.10.113.70")).toBe("203.10.113.70");
    expect(peer("64:ff9b::ffff:1.2.3.4")).toBe("64:ff9b::ffff:1.2.3.4");
    expect(peer("::ffff:1.2.3.4.5")).toBe("::ffff:1.2.3.4.5");
    expect(peer("::1")).toBe("::1");
    for (const odd of ["g1.2.3.4", "1.2.3.4g", "1", "1".repeat(46)]) expect(peer(odd)).toBe(UNKNOWN_CLIENT);
    expect(peer("1".repeat(45))).toBe("1".repeat(45));
  });

  it("with n hops is the n-th X-Forwarded-For entry from the right, ignoring what the client prepended", () => {
    const forwarded = headers({ "x-forwarded-for": "10.0.0.1, 198.51.100.1 ,203.0.113.7", [PEER_HEADER]: "10.9.9.9" });
    expect(clientAddress(forwarded, 1)).toBe("203.0.113.7");
    expect(clientAddress(forwarded, 2)).toBe("198.51.100.1");
    expect(clientAddress(forwarded, 3)).toBe("10.0.0.1");
  });

  it("counts a request that came around the proxies, or with a malformed entry, as the unknown client", () => {
    expect(clientAddress(headers({ "x-forwarded-for": "203.0.113.7" }), 2)).toBe(UNKNOWN_CLIENT);
    expect(clientAddress(headers({}), 1)).toBe(UNKNOWN_CLIENT);
    expect(clientAddress(headers({ "x-forwarded-for": " , " }), 1)).toBe(UNKNOWN_CLIENT);
    // Empty entries (a proxy's stray comma) are not hops.
    expect(clientAddress(headers({ "x-forwarded-for": "198.51.100.1, ,203.0.113.7" }), 2)).toBe("198.51.100.1");
    expect(clientAddress(headers({ "x-forwarded-for": "198.51.100.1,,203.0.113.7" }), 2)).toBe("198.51.100.1");
    expect(clientAddress(headers({ "x-forwarded-for": "1.2.3.4, evil:bucket/name" }), 1)).toBe(UNKNOWN_CLIENT);
    expect(clientAddress(headers({ "x-forwarded-for": "x".repeat(60) }), 1)).toBe(UNKNOWN_CLIENT);
  });
});
