import { isIP } from "node:net";
import { getDomain, parse } from "tldts";

/**
 * Host lists behind the webhook URL rules (./rules.ts), which the emulator's console and the doctor share. The
 * platform's console refuses webhook URLs on the service's own domains and on the free subdomains of serverless
 * hosts and tunnels (a custom domain on the same host is fine).
 *
 * Free subdomains are read from the Public Suffix List's private section (through `tldts`, kept up to date
 * upstream): a provider lists there the domains under which anyone gets a name (vercel.app, netlify.app,
 * herokuapp.com, pages.dev, the tunnels' ngrok.app and trycloudflare.com), so a host under one is a free subdomain.
 * `npm run doctor -- --service-domain example.com` adds service domains for one run.
 */

/**
 * Hosting and tunnel domains whose subdomains anyone gets, which the Public Suffix List does not list (checked
 * against tldts 7.6.0; tests/unit/doctor-webhook-url.test.ts fails once the list names one, so it can go). To
 * extend: add a domain (no leading dot); a host matches when it equals it or ends with "." + domain.
 */
export const FREE_SUBDOMAINS_OUTSIDE_PSL: readonly string[] = ["railway.app", "on.aws", "koyeb.app", "glitch.me", "netlify.live", "netlify.com", "deta.app"];

/**
 * The provider domain when `host` is one of its free subdomains (or the domain itself), else null: the Public
 * Suffix List's private section, then FREE_SUBDOMAINS_OUTSIDE_PSL. Named by its registrable domain ("up.railway.app"
 * is railway.app's), which is what a developer recognises. `replaceWith` swaps both for a list (a doctor option).
 */
export function freeSubdomainProvider(host: string, replaceWith?: readonly string[]): string | null {
  if (replaceWith) return replaceWith.find((domain) => isOnDomain(host, domain)) ?? null;
  const parsed = parse(host, { allowPrivateDomains: true });
  if (parsed.isPrivate && parsed.publicSuffix) return getDomain(parsed.publicSuffix) ?? parsed.publicSuffix;
  return FREE_SUBDOMAINS_OUTSIDE_PSL.find((domain) => isOnDomain(host, domain)) ?? null;
}

/** Top-level names that never resolve on the public internet (RFC 2606, 6761, 6762, 7686 and common private ones). */
export const NON_PUBLIC_TLDS: ReadonlySet<string> = new Set([
  "localhost", "local", "internal", "test", "example", "invalid", "arpa", "onion", "lan", "home", "corp", "intranet", "private",
]);

/**
 * The service's own domains, beyond those derived from SVC_AUTH_URL and SVC_API_URL (whose registrable domains
 * are always included). The spec does not name them, so this starts empty.
 */
export const SERVICE_DOMAINS: readonly string[] = [];

/**
 * The registrable domain of a host ("api.shop.example.com" -> "example.com", "auth.store.com.dz" ->
 * "store.com.dz"), by the Public Suffix List's ICANN section; a name without one (localhost) is itself.
 */
export function registrableDomain(host: string): string {
  const name = host.toLowerCase().replace(/\.$/, "");
  return getDomain(name, { allowPrivateDomains: false }) ?? name;
}

/** The URL parser normalises every IPv4 spelling (0x7f.1, 2130706433) to dotted decimal and keeps IPv6 in brackets. */
export function isIpAddress(hostname: string): boolean {
  return isIP(hostname.replace(/^\[|\]$/g, "")) !== 0;
}

export function isOnDomain(host: string, domain: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, "");
  const d = domain.toLowerCase().replace(/^\./, "").replace(/\.$/, "");
  return d.length > 0 && (h === d || h.endsWith(`.${d}`));
}

/**
 * The registrable domains of the platform's own hosts (the doctor passes SVC_AUTH_URL and SVC_API_URL, the emulator
 * its origin), plus `extra`. Loopback names and IP addresses are no domain: the host-name rules cover them.
 */
export function serviceDomainsOf(origins: readonly (string | null | undefined)[], extra: readonly string[] = []): string[] {
  const derived = origins.flatMap((origin) => {
    if (!origin) return [];
    try {
      const host = new URL(origin).hostname.toLowerCase();
      return host === "localhost" || isIpAddress(host) ? [] : [registrableDomain(host)];
    } catch {
      return [];
    }
  });
  return [...new Set([...derived, ...extra])];
}
