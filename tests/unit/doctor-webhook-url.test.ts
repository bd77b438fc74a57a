import { describe, expect, it } from "vitest";
import { runDoctor } from "@/lib/doctor";
import { parse } from "tldts";
import { FREE_SUBDOMAINS_OUTSIDE_PSL, registrableDomain, serviceDomainsOf } from "@/lib/webhook-url/domains";
import { webhookUrlProblems } from "@/lib/webhook-url/rules";
import { goodEnv } from "../helpers/doctor-env";

/** Runs the whole doctor on a configuration whose only change is APP_URL, and returns its webhook URL line. */
async function webhookLine(appUrl: string, serviceDomains: string[] = []) {
  const report = await runDoctor({ ...goodEnv(), APP_URL: appUrl }, { skipPlatform: true, serviceDomains });
  const line = report.checks.find((check) => check.id === "webhook-url");
  return { report, line };
}

describe("webhook URL rules (doctor)", () => {
  it("passes a custom https domain on port 443 and says which URL to register", async () => {
    const { report, line } = await webhookLine("https://orders.amina-couture.com");
    expect(line?.status).toBe("pass");
    expect(line?.detail).toContain("https://orders.amina-couture.com/api/webhooks");
    expect(report.ok).toBe(true);
  });

  it.each([
    ["port", "https://orders.amina-couture.com:8443", "must be served on port 443, not 8443"],
    ["credentials", "https://karim:hunter22@orders.amina-couture.com", "must not contain a user name or password"],
    ["ip-address", "https://203.0.113.7", "must use a host name, not the IP address 203.0.113.7"],
    ["ip-address", "https://[2001:db8::1]", "must use a host name, not the IP address [2001:db8::1]"],
    ["public-host", "https://orders", "must be a public host name with a top-level domain, not orders"],
    ["public-host", "https://app.internal", "must be a public host name with a top-level domain, not app.internal"],
    ["public-host", "https://localhost", "must be a public host name with a top-level domain, not localhost"],
    ["serverless-domain", "https://my-app.vercel.app", "must not be on vercel.app, a serverless host's free subdomain"],
    ["serverless-domain", "https://my-app.netlify.app", "must not be on netlify.app"],
    ["serverless-domain", "https://my-app.pages.dev", "must not be on pages.dev"],
    ["serverless-domain", "https://api.my-app.workers.dev", "must not be on workers.dev"],
    ["serverless-domain", "https://my-app.herokuapp.com", "must not be on herokuapp.com"],
    ["serverless-domain", "https://my-app.onrender.com", "must not be on onrender.com"],
    ["serverless-domain", "https://my-app.fly.dev", "must not be on fly.dev"],
    ["serverless-domain", "https://my-app.up.railway.app", "must not be on railway.app"],
    ["serverless-domain", "https://my-app.deno.dev", "must not be on deno.dev"],
    // Read from the Public Suffix List's private section, none of them listed by hand.
    ["serverless-domain", "https://amina-shop.github.io", "must not be on github.io"],
    ["serverless-domain", "https://amina.blogspot.com", "must not be on blogspot.com"],
    ["serverless-domain", "https://amina-orders.vercel.app", "must not be on vercel.app"],
    ["serverless-domain", "https://orders-amina.azurewebsites.net", "must not be on azurewebsites.net"],
    ["serverless-domain", "https://amina.gitlab.io", "must not be on gitlab.io"],
    ["serverless-domain", "https://amina-orders-1234.trycloudflare.com", "must not be on trycloudflare.com"],
    ["serverless-domain", "https://hooks-abc123-uc.a.run.app", "must not be on run.app"],
    ["serverless-domain", "https://vercel.app", "must not be on vercel.app"],
    // Not in the list (FREE_SUBDOMAINS_OUTSIDE_PSL).
    ["serverless-domain", "https://amina.glitch.me", "must not be on glitch.me"],
    ["serverless-domain", "https://amina.koyeb.app", "must not be on koyeb.app"],
  ])("fails the %s rule for %s and names it", async (_rule, appUrl, message) => {
    const { report, line } = await webhookLine(appUrl);
    expect(line?.status).toBe("fail");
    expect(line?.detail).toContain(message);
    expect(line?.fix).toMatch(/custom https domain/);
    expect(report.ok).toBe(false);
  });

  it("fails a plain http APP_URL at the variable itself (production refuses it), so the webhook line waits for it", async () => {
    const { report, line } = await webhookLine("http://orders.amina-couture.com");
    expect(report.checks.find((check) => check.id === "env.APP_URL")).toMatchObject({ status: "fail", detail: expect.stringContaining("must use https") });
    expect(line?.status).toBe("skip");
    expect(report.ok).toBe(false);
    // The webhook rule itself still names http, for callers that judge a URL alone.
    expect(webhookUrlProblems("http://orders.amina-couture.com/api/webhooks").map((problem) => problem.message).join(" ")).toContain(
      "must use https, not http",
    );
  });

  it("fails a URL longer than 255 characters, counting the /api/webhooks suffix, and passes exactly 255", async () => {
    // "https://" (8) + host + "/api/webhooks" (13); labels stay under 63 characters.
    const hostOfLength = (length: number) => `${"a".repeat(60)}.${"b".repeat(60)}.${"c".repeat(60)}.${"d".repeat(length - 187)}.com`;
    const atLimit = await webhookLine(`https://${hostOfLength(234)}`);
    expect(`https://${hostOfLength(234)}/api/webhooks`).toHaveLength(255);
    expect(atLimit.line?.status).toBe("pass");
    const over = await webhookLine(`https://${hostOfLength(235)}`);
    expect(over.line?.status).toBe("fail");
    expect(over.line?.detail).toContain("must be at most 255 characters, not 256");
  });

  it("fails a URL on the platform's own domain, derived from SVC_API_URL and SVC_AUTH_URL", async () => {
    // goodEnv's platform hosts are api.svc-platform.com and auth.svc-platform.com.
    const { line } = await webhookLine("https://apps.svc-platform.com");
    expect(line?.status).toBe("fail");
    expect(line?.detail).toContain("must not be on the platform's own domain svc-platform.com");
  });

  it("fails a URL on a service domain given on the command line", async () => {
    const { line } = await webhookLine("https://hooks.svc-cdn.net", ["svc-cdn.net"]);
    expect(line?.status).toBe("fail");
    expect(line?.detail).toContain("must not be on the platform's own domain svc-cdn.net");
  });

  it("does not mistake a look-alike host for a listed domain", () => {
    expect(webhookUrlProblems("https://notvercel.app/api/webhooks")).toEqual([]);
    expect(webhookUrlProblems("https://vercel.app.amina-couture.com/api/webhooks")).toEqual([]);
    // A custom domain on a public suffix of the ICANN section (a country's second level) is the merchant's own.
    expect(webhookUrlProblems("https://orders.amina-couture.com.dz/api/webhooks")).toEqual([]);
    expect(webhookUrlProblems("https://hooks.amina.co.uk/api/webhooks")).toEqual([]);
  });

  it("lists by hand only the free-subdomain domains the Public Suffix List does not have (drop one once it does)", () => {
    for (const domain of FREE_SUBDOMAINS_OUTSIDE_PSL) expect(parse(`my-app.${domain}`, { allowPrivateDomains: true }).isPrivate, domain).toBe(false);
  });

  it("a doctor's own list replaces the Public Suffix List", () => {
    expect(webhookUrlProblems("https://my-app.vercel.app/api/webhooks", { serverlessDomains: ["example.org"] })).toEqual([]);
    expect(webhookUrlProblems("https://hooks.example.org/api/webhooks", { serverlessDomains: ["example.org"] }).map((problem) => problem.rule)).toEqual([
      "not_serverless_subdomain",
    ]);
  });

  it("reports every broken rule at once", () => {
    const rules = webhookUrlProblems("http://user:pw@10.0.0.5:8080/api/webhooks").map((problem) => problem.rule);
    expect(rules).toEqual(["https_only", "port_443", "no_credentials", "no_ip_address"]);
  });

  it("treats every IPv4 spelling the URL parser accepts as an IP address", () => {
    expect(webhookUrlProblems("https://2130706433/api/webhooks").map((problem) => problem.rule)).toContain("no_ip_address");
    expect(webhookUrlProblems("https://0x7f.1/api/webhooks").map((problem) => problem.rule)).toContain("no_ip_address");
  });

  it("never prints a password found in APP_URL", async () => {
    const { report } = await webhookLine("https://karim:hunter22@orders.amina-couture.com");
    expect(JSON.stringify(report)).not.toContain("hunter22");
  });

  it("finds registrable domains, including two-label public suffixes", () => {
    expect(registrableDomain("api.svc-platform.com")).toBe("svc-platform.com");
    expect(registrableDomain("auth.store.com.dz")).toBe("store.com.dz");
    expect(registrableDomain("localhost")).toBe("localhost");
  });

  it("takes the platform's domains from its hosts, never from a loopback name or an IP address", () => {
    const hosts = ["https://api.store.com.dz", "https://auth.store.com.dz", "http://localhost:4000", "http://127.0.0.1:4000", "http://[::1]:4000"];
    expect(serviceDomainsOf(hosts, ["svc-cdn.net"])).toEqual(["store.com.dz", "svc-cdn.net"]);
  });
});
