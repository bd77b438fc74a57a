/**
 * The console's webhook URL rules (spec, "Webhook URL rules"), for both sides that judge a URL: the emulator's
 * console refuses to save a URL on the first rule it breaks (naming the rule's id in its 422), and the doctor
 * lists every rule a deploy's URL breaks. One table, so the two can only differ in how much they report.
 */
import { freeSubdomainProvider, isIpAddress, isOnDomain, NON_PUBLIC_TLDS, SERVICE_DOMAINS } from "./domains";

export const MAX_WEBHOOK_URL_LENGTH = 255;

export type UrlRuleId =
  | "max_length"
  | "valid_url"
  | "https_only"
  | "port_443"
  | "no_credentials"
  | "no_ip_address"
  | "public_hostname"
  | "not_service_domain"
  | "not_serverless_subdomain";

export type UrlRuleOptions = {
  /** Development setting: accept http://localhost on any port (the real console refuses it). */
  allowLocalhost?: boolean;
  /** Domains of the service itself, besides SERVICE_DOMAINS; subdomains count too. */
  serviceDomains?: readonly string[];
  /** Replaces the Public Suffix List's free subdomains with this list (a doctor option). */
  serverlessDomains?: readonly string[];
};

/** One broken rule; `message` completes "The webhook URL …" and names the offending part. */
export type UrlProblem = { rule: UrlRuleId; message: string };

export type UrlCheck = { ok: true; url: string } | { ok: false; rule: UrlRuleId; message: string };

type Parsed = { raw: string; url: URL; host: string; localhostException: boolean };
type Rule = { id: UrlRuleId; problem: (input: Parsed, options: UrlRuleOptions) => string | null };

function effectivePort(url: URL): string {
  // URL drops the default port, so an explicit :443 on https reads as "".
  return url.port || (url.protocol === "https:" ? "443" : url.protocol === "http:" ? "80" : "");
}

const RULES: Rule[] = [
  {
    id: "https_only",
    problem: ({ url, localhostException }) =>
      url.protocol === "https:" || localhostException ? null : `must use https, not ${url.protocol.replace(":", "")}`,
  },
  {
    id: "port_443",
    problem: ({ url, localhostException }) => {
      const port = effectivePort(url);
      return port === "443" || localhostException ? null : `must be served on port 443, not ${port || "(none)"}`;
    },
  },
  {
    id: "no_credentials",
    problem: ({ url }) => (url.username === "" && url.password === "" ? null : "must not contain a user name or password"),
  },
  {
    id: "no_ip_address",
    problem: ({ host }) => (isIpAddress(host) ? `must use a host name, not the IP address ${host}` : null),
  },
  {
    id: "public_hostname",
    problem: ({ host, localhostException }) => {
      // An IP address breaks the rule above; one reason is enough.
      if (localhostException || isIpAddress(host)) return null;
      const labels = host.split(".");
      const tld = labels.at(-1) ?? "";
      const labelsValid = labels.every((label) => /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(label));
      const tldValid = /^[a-z]{2,63}$/.test(tld) || /^xn--[a-z0-9-]+$/.test(tld);
      const isPublic = labels.length >= 2 && labelsValid && tldValid && !NON_PUBLIC_TLDS.has(tld);
      return isPublic ? null : `must be a public host name with a top-level domain, not ${host}`;
    },
  },
  {
    id: "not_service_domain",
    problem: ({ host, localhostException }, options) => {
      if (localhostException) return null;
      const domain = [...SERVICE_DOMAINS, ...(options.serviceDomains ?? [])].find((candidate) => isOnDomain(host, candidate));
      return domain ? `must not be on the platform's own domain ${domain}` : null;
    },
  },
  {
    id: "not_serverless_subdomain",
    problem: ({ host }, options) => {
      const domain = freeSubdomainProvider(host, options.serverlessDomains);
      return domain ? `must not be on ${domain}, a serverless host's free subdomain (use a custom domain on that host)` : null;
    },
  },
];

export const URL_RULE_IDS: readonly UrlRuleId[] = ["max_length", "valid_url", ...RULES.map((rule) => rule.id)];

/** Every rule the URL breaks, in table order (none: the console saves it). */
export function webhookUrlProblems(raw: string, options: UrlRuleOptions = {}): UrlProblem[] {
  const trimmed = raw.trim();
  const problems: UrlProblem[] = [];
  if (trimmed.length > MAX_WEBHOOK_URL_LENGTH) {
    problems.push({ rule: "max_length", message: `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters, not ${trimmed.length}` });
  }
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return [...problems, { rule: "valid_url", message: "is not a valid absolute URL" }];
  }
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  const localhostException = options.allowLocalhost === true && host === "localhost" && (url.protocol === "http:" || url.protocol === "https:");
  const parsed: Parsed = { raw: trimmed, url, host, localhostException };
  for (const rule of RULES) {
    const message = rule.problem(parsed, options);
    if (message) problems.push({ rule: rule.id, message });
  }
  return problems;
}

/** The console's verdict: the URL as it saves it, or the first rule it breaks. */
export function checkWebhookUrl(raw: string, options: UrlRuleOptions = {}): UrlCheck {
  const [first] = webhookUrlProblems(raw, options);
  if (first) return { ok: false, rule: first.rule, message: `The webhook URL ${first.message}.` };
  return { ok: true, url: new URL(raw.trim()).toString() };
}
