import { isIP } from "node:net";

/**
 * Host lists behind the webhook URL rules (./rules.ts), which the emulator's console and the doctor share. The
 * platform's console refuses webhook URLs on the service's own domains and on the free subdomains of serverless
 * hosts and tunnels (a custom domain on the same host is fine).
 *
 * To extend: add a suffix below (no leading dot). A host matches a suffix when it equals it or ends with
 * "." + suffix. `npm run doctor -- --service-domain example.com` adds service domains for one run.
 */
export const SERVERLESS_FREE_DOMAINS: readonly string[] = [
  "vercel.app",
  "now.sh",
  "netlify.app",
  "pages.dev",
  "workers.dev",
  "herokuapp.com",
  "onrender.com",
  "fly.dev",
  "railway.app",
  "deno.dev",
  "web.app",
  "firebaseapp.com",
  "appspot.com",
  "run.app",
  "cloudfunctions.net",
  "azurewebsites.net",
  "azurestaticapps.net",
  "amplifyapp.com",
  "on.aws",
  "koyeb.app",
  "replit.app",
  "repl.co",
  "glitch.me",
  "netlify.live",
  "netlify.com",
  "up.railway.app",
  "deta.app",
  "vercel.dev",
  "ngrok.io",
  "ngrok-free.app",
  "ngrok.app",
  "trycloudflare.com",
];

/** Top-level names that never resolve on the public internet (RFC 2606, 6761, 6762, 7686 and common private ones). */
export const NON_PUBLIC_TLDS: ReadonlySet<string> = new Set([
  "localhost", "local", "internal", "test", "example", "invalid", "arpa", "onion", "lan", "home", "corp", "intranet", "private",
]);

/**
 * The service's own domains, beyond those derived from SVC_AUTH_URL and SVC_API_URL (whose registrable domains
 * are always included). The spec does not name them, so this starts empty.
 */
export const SERVICE_DOMAINS: readonly string[] = [];

/** Second-level public suffixes common where the platform operates; enough to find a registrable domain. */
const TWO_LABEL_SUFFIXES = new Set([
  "com.dz", "org.dz", "net.dz", "edu.dz", "gov.dz",
  "co.uk", "org.uk", "com.au", "co.nz", "co.za", "com.br", "co.jp", "com.tr", "com.sa", "com.eg", "com.tn", "co.ma",
]);

/**
 * The registrable domain of a host ("api.shop.example.com" -> "example.com", "auth.store.com.dz" ->
 * "store.com.dz"). An approximation without the full public suffix list, good for the hosts at hand.
 */
export function registrableDomain(host: string): string {
  const labels = host.toLowerCase().replace(/\.$/, "").split(".");
  if (labels.length <= 2) return labels.join(".");
  const lastTwo = labels.slice(-2).join(".");
  return TWO_LABEL_SUFFIXES.has(lastTwo) ? labels.slice(-3).join(".") : lastTwo;
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
