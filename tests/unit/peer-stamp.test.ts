import { createServer, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PEER_HEADER, peerProof, stampedPeer, stampPeers } from "@/lib/http/peer-stamp";

/**
 * The peer stamp on a real Node http server: what Next's own server is. The subscription is process-wide, as in
 * production, so this file owns its process's proof.
 */

let seen: IncomingHttpHeaders[] = [];
const server = createServer((req, res) => {
  seen.push({ ...req.headers });
  res.end("ok");
});
let port = 0;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** One request with the given headers; returns the headers the server's handler received. */
async function send(headers: Record<string, string>): Promise<IncomingHttpHeaders> {
  seen = [];
  await new Promise<void>((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path: "/", headers }, (res) => {
      res.resume();
      res.on("end", resolve);
    });
    req.on("error", reject);
    req.end();
  });
  return seen[0]!;
}

describe("stampPeers", () => {
  it("stamps nothing and vouches for nothing before it subscribes; then stamps every request's peer", async () => {
    expect(peerProof()).toBeNull();
    const received = await send({ [PEER_HEADER]: "anything 198.51.100.1" });
    expect(received[PEER_HEADER]).toBe("anything 198.51.100.1");
    expect(stampedPeer(received[PEER_HEADER] as string, peerProof())).toBeNull();

    // Then it writes the connection's peer with this process's proof over whatever a client sent, once per process.
    stampPeers();
    const proof = peerProof();
    expect(proof).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const forged = await send({ [PEER_HEADER]: `${proof} 198.51.100.1`, "x-forwarded-for": "198.51.100.2" });
    expect(forged[PEER_HEADER]).toBe(`${proof} 127.0.0.1`);
    expect(stampedPeer(forged[PEER_HEADER] as string, proof)).toBe("127.0.0.1");
    expect(forged["x-forwarded-for"]).toBe("198.51.100.2");
    // A second call keeps the subscription and the proof it has: one stamp per request.
    stampPeers();
    expect(peerProof()).toBe(proof);
    expect((await send({}))[PEER_HEADER]).toBe(`${proof} 127.0.0.1`);
  });
});
