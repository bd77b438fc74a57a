/**
 * The console's webhook URL rules. Each rule has a stable id so the control API can answer 422 naming the rule
 * that failed, and the tests can break one rule at a time. Rules run in table order; the first failure wins.
 */
import { isIP } from "node:net";
import { isOnDomain, NON_PUBLIC_TLDS, SERVERLESS_FREE_DOMAINS } from "./domains";

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
  allowLocalhost: boolean;
  /** Domains of the service itself (the emulator adds its own host); subdomains count too. */
  serviceDomains: readonly string[];
};

export type UrlCheck = { ok: true; url: string } | { ok: false; rule: UrlRuleId; message: string };

type Parsed = { raw: string; url: URL; host: string };
type Rule = { id: UrlRuleId; message: string; passes: (input: Parsed, options: UrlRuleOptions) => boolean };

function isLocalhostException(input: Parsed, options: UrlRuleOptions): boolean {
  return options.allowLocalhost && input.host === "localhost" && (input.url.protocol === "http:" || input.url.protocol === "https:");
}

const RULES: Rule[] = [
  {
    id: "https_only",
    message: "The webhook URL must use https.",
    passes: (input, options) => input.url.protocol === "https:" || isLocalhostException(input, options),
  },
  {
    id: "port_443",
    message: "The webhook URL must use port 443.",
    // URL drops the default port, so an explicit :443 on https reads as "".
    passes: (input, options) => input.url.port === "" || isLocalhostException(input, options),
  },
  {
    id: "no_credentials",
    message: "The webhook URL must not contain a user name or password.",
    passes: (input) => input.url.username === "" && input.url.password === "",
  },
  {
    id: "no_ip_address",
    message: "The webhook URL must use a host name, not an IP address.",
    passes: (input) => isIP(input.host.replace(/^\[|\]$/g, "")) === 0,
  },
  {
    id: "public_hostname",
    message: "The webhook URL must use a public host name with a top-level domain.",
    passes: (input, options) => {
      if (isLocalhostException(input, options)) return true;
      const labels = input.host.split(".");
      const tld = labels.at(-1) ?? "";
      const labelsValid = labels.every((label) => /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(label));
      const tldValid = /^[a-z]{2,63}$/.test(tld) || /^xn--[a-z0-9-]+$/.test(tld);
      return labels.length >= 2 && labelsValid && tldValid && !NON_PUBLIC_TLDS.has(tld);
    },
  },
  {
    id: "not_service_domain",
    message: "The webhook URL must not be on one of the service's own domains.",
    passes: (input, options) => isLocalhostException(input, options) || !options.serviceDomains.some((d) => isOnDomain(input.host, d)),
  },
  {
    id: "not_serverless_subdomain",
    message: "The webhook URL must not be on the free subdomain of a serverless-hosting provider; use your own domain.",
    passes: (input) => !SERVERLESS_FREE_DOMAINS.some((d) => isOnDomain(input.host, d)),
  },
];

export const URL_RULE_IDS: readonly UrlRuleId[] = ["max_length", "valid_url", ...RULES.map((rule) => rule.id)];

export function checkWebhookUrl(raw: string, options: UrlRuleOptions): UrlCheck {
  const trimmed = raw.trim();
  if (trimmed.length > MAX_WEBHOOK_URL_LENGTH) {
    return { ok: false, rule: "max_length", message: `The webhook URL must be at most ${MAX_WEBHOOK_URL_LENGTH} characters.` };
  }
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return { ok: false, rule: "valid_url", message: "The webhook URL is not a valid absolute URL." };
  }
  const parsed: Parsed = { raw: trimmed, url, host: url.hostname.toLowerCase().replace(/\.$/, "") };
  for (const rule of RULES) {
    if (!rule.passes(parsed, options)) return { ok: false, rule: rule.id, message: rule.message };
  }
  return { ok: true, url: url.toString() };
}

/** The emulator's own host counts as a service domain (unless it is localhost, which the host-name rule covers). */
export function serviceDomainsFor(origin: string): string[] {
  try {
    const host = new URL(origin).hostname.toLowerCase();
    return host === "localhost" || isIP(host.replace(/^\[|\]$/g, "")) !== 0 ? [] : [host.split(".").slice(-2).join(".")];
  } catch {
    return [];
  }
}
