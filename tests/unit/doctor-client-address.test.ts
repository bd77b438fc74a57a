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

  it("fails when hops are read but no proxy is listed (unset or empty), and passes with the proxies listed", () => {
    expect(checkClientAddress({ ...PUBLIC, TRUST_PROXY_HOPS: "1" })).toMatchObject({
      status: "fail",
      detail: "TRUST_PROXY_HOPS is 1 but TRUSTED_PROXIES is unset: production refuses to start",
      fix: expect.stringContaining("TRUSTED_PROXIES"),
    });
    for (const empty of ["", " ", " , "]) {
      expect(checkClientAddress({ ...PUBLIC, TRUST_PROXY_HOPS: "1", TRUSTED_PROXIES: empty }), JSON.stringify(empty)).toMatchObject({
        status: "fail",
        detail: "TRUST_PROXY_HOPS is 1 but TRUSTED_PROXIES lists no proxy: production refuses to start",
      });
    }
    expect(checkClientAddress({ ...PUBLIC, TRUST_PROXY_HOPS: "2" })).toMatchObject({
      status: "fail",
      detail: expect.stringContaining("is unset: production refuses to start; an outer proxy not listed (a CDN) would count as every merchant's address"),
    });
    expect(checkClientAddress({ ...PUBLIC, TRUST_PROXY_HOPS: "2", TRUSTED_PROXIES: "10.0.0.0/8, ,192.0.2.1" })).toMatchObject({
      status: "pass",
      detail: "X-Forwarded-For is read only from the 2 listed proxy range(s), up to 2 hop(s); any other peer is the client itself",
    });
  });

  it("the whole report fails without TRUSTED_PROXIES behind proxies, on the variable's own line too", async () => {
    for (const proxies of [undefined, ""]) {
      const report = await runDoctor({ ...PUBLIC, TRUST_PROXY_HOPS: "1", TRUSTED_PROXIES: proxies }, { skipPlatform: true });
      expect(report.ok).toBe(false);
      expect(report.checks.find((check) => check.id === "client-address")?.status).toBe("fail");
      expect(report.checks.find((check) => check.id === "env.TRUSTED_PROXIES")).toMatchObject({
        status: "fail",
        detail: proxies === undefined ? expect.stringMatching(/^missing: TRUST_PROXY_HOPS is 1 or more/) : expect.stringMatching(/^is empty, which trusts no proxy/),
      });
    }
    const listed = await runDoctor({ ...PUBLIC, TRUST_PROXY_HOPS: "1", TRUSTED_PROXIES: "10.0.0.0/8" }, { skipPlatform: true });
    expect(listed.checks.find((check) => check.id === "env.TRUSTED_PROXIES")?.status).toBe("pass");
    expect(listed.checks.find((check) => check.id === "client-address")?.status).toBe("pass");
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
