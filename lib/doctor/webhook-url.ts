import { NON_PUBLIC_TLDS, SERVERLESS_FREE_DOMAINS, SERVICE_DOMAINS, isOnDomain } from "@/lib/webhook-url/domains";

/** The console's webhook URL rules (spec, "Webhook URL rules"), one entry per rule broken. */
export type WebhookUrlRule =
  | "parse"
  | "https"
  | "port"
  | "credentials"
  | "ip-address"
  | "public-host"
  | "length"
  | "service-domain"
  | "serverless-domain";

export type WebhookUrlProblem = { rule: WebhookUrlRule; message: string };

export const WEBHOOK_URL_MAX_LENGTH = 255;

export type WebhookUrlOptions = {
  /** Registrable domains of the service (derived from SVC_AUTH_URL/SVC_API_URL by the caller) and any extra ones. */
  serviceDomains?: readonly string[];
  serverlessDomains?: readonly string[];
};

function isIpAddress(hostname: string): boolean {
  // The URL parser normalises every IPv4 spelling (0x7f.1, 2130706433) to dotted decimal and keeps IPv6 in brackets.
  return hostname.startsWith("[") || /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname);
}

export function webhookUrlProblems(url: string, options: WebhookUrlOptions = {}): WebhookUrlProblem[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [{ rule: "parse", message: "is not a valid absolute URL" }];
  }
  const problems: WebhookUrlProblem[] = [];
  const host = parsed.hostname.toLowerCase();

  if (parsed.protocol !== "https:") problems.push({ rule: "https", message: `must use https, not ${parsed.protocol.replace(":", "")}` });
  const port = parsed.port || (parsed.protocol === "https:" ? "443" : parsed.protocol === "http:" ? "80" : "");
  if (port !== "443") problems.push({ rule: "port", message: `must be served on port 443, not ${port || "(none)"}` });
  if (parsed.username || parsed.password) {
    problems.push({ rule: "credentials", message: "must not contain a user name or password" });
  }
  if (isIpAddress(host)) {
    problems.push({ rule: "ip-address", message: `must use a host name, not the IP address ${host}` });
  } else {
    const labels = host.replace(/\.$/, "").split(".");
    const tld = labels.at(-1) ?? "";
    const hasTld = labels.length >= 2 && labels.every((label) => label.length > 0) && /^([a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(tld);
    if (!hasTld || NON_PUBLIC_TLDS.has(tld)) {
      problems.push({ rule: "public-host", message: `must be a public host name with a top-level domain, not ${host}` });
    }
  }
  if (url.length > WEBHOOK_URL_MAX_LENGTH) {
    problems.push({ rule: "length", message: `must be at most ${WEBHOOK_URL_MAX_LENGTH} characters, not ${url.length}` });
  }
  const serviceDomain = [...SERVICE_DOMAINS, ...(options.serviceDomains ?? [])].find((domain) => isOnDomain(host, domain));
  if (serviceDomain) {
    problems.push({ rule: "service-domain", message: `must not be on the platform's own domain ${serviceDomain}` });
  }
  const serverless = (options.serverlessDomains ?? SERVERLESS_FREE_DOMAINS).find((domain) => isOnDomain(host, domain));
  if (serverless) {
    problems.push({
      rule: "serverless-domain",
      message: `must not be on ${serverless}, a serverless host's free subdomain (use a custom domain on that host)`,
    });
  }
  return problems;
}
