import { describe, expect, it } from "vitest";
import { checkClientAddress } from "@/lib/doctor/client-address-check";
import { runDoctor } from "@/lib/doctor";

const PUBLIC = { APP_URL: "https://app.example.com", SVC_AUTH_URL: "https://auth.platform.example", SVC_API_URL: "https://api.platform.example" };

describe("the doctor's client address line", () => {
  it("a rehearsal has no per-address budget", () => {
    const local = { APP_URL: "http://localhost:3000", SVC_AUTH_URL: "http://localhost:4000", SVC_API_URL: "http://localhost:4000" };
    expect(checkClientAddress({ ...local, TRUST_PROXY_HOPS: "1" })).toMatchObject({ status: "pass", detail: expect.stringContaining("rehearsal") });
  });

  it("on Vercel trusts its edge's header and reads neither setting", () => {
    expect(checkClientAddress({ ...PUBLIC, VERCEL: "1", TRUST_PROXY_HOPS: "2" })).toMatchObject({ status: "pass", detail: expect.stringContaining("x-real-ip") });
  });

  it("bare next start: the peer, and says where that is not available", () => {
    for (const hops of [undefined, "", "0"]) {
      const line = checkClientAddress({ ...PUBLIC, TRUST_PROXY_HOPS: hops });
      expect(line.status).toBe("pass");
      expect(line.detail).toContain("the connection's peer is the client");
      expect(line.detail).toContain("no per-address budget");
    }
    expect(checkClientAddress({ ...PUBLIC, VERCEL: "0" }).detail).toContain("the connection's peer");
  });

  it("warns when proxies are listed but no hop is read", () => {
    expect(checkClientAddress({ ...PUBLIC, TRUSTED_PROXIES: "10.0.0.0/8" })).toMatchObject({
      status: "warn",
      detail: expect.stringContaining("X-Forwarded-For is never read"),
      fix: expect.stringContaining("TRUST_PROXY_HOPS"),
    });
  });

  it("warns when hops are read from any private peer, and passes with the proxies listed", () => {
    expect(checkClientAddress({ ...PUBLIC, TRUST_PROXY_HOPS: "1" })).toMatchObject({
      status: "warn",
      detail: expect.stringMatching(/any peer on loopback or a private network \(127\.0\.0\.0\/8, 10\.0\.0\.0\/8.*\), up to 1 hop/),
      fix: expect.stringContaining("TRUSTED_PROXIES"),
    });
    expect(checkClientAddress({ ...PUBLIC, TRUST_PROXY_HOPS: "1" }).detail).not.toContain("CDN");
    expect(checkClientAddress({ ...PUBLIC, TRUST_PROXY_HOPS: "2" })).toMatchObject({
      status: "warn",
      detail: expect.stringContaining("up to 2 hop(s); an outer proxy on a public address (a CDN) is not trusted"),
    });
    expect(checkClientAddress({ ...PUBLIC, TRUST_PROXY_HOPS: "2", TRUSTED_PROXIES: "10.0.0.0/8, ,192.0.2.1" })).toMatchObject({
      status: "pass",
      detail: "X-Forwarded-For is read only from the 2 listed proxy range(s), up to 2 hop(s); any other peer is the client itself",
    });
  });

  it("is one line of the report, and a malformed TRUSTED_PROXIES fails on its own line", async () => {
    const report = await runDoctor({ ...PUBLIC, TRUST_PROXY_HOPS: "1", TRUSTED_PROXIES: "10.0.0.0/8,not-an-address" }, { skipPlatform: true });
    expect(report.checks.find((check) => check.id === "client-address")?.status).toBe("pass");
    expect(report.checks.find((check) => check.id === "env.TRUSTED_PROXIES")).toMatchObject({
      status: "fail",
      detail: "must list IP addresses or CIDRs such as 10.0.0.0/8, comma-separated",
    });
  });
});
