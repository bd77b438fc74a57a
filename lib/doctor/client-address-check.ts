import { isLocalPlatform, type RawEnv } from "@/lib/env";
import type { CheckResult } from "./types";

const ID = "client-address";
const TITLE = "Client address";
const GUIDE = "see docs/deploy.md, \"The client address\"";

/**
 * Where the install budgets' client address will come from (lib/http/client-address.ts), judged from the settings
 * alone: the doctor cannot see the requests. Malformed values fail on their own variables' lines.
 */
export function checkClientAddress(raw: RawEnv): CheckResult {
  const hops = Number(raw.TRUST_PROXY_HOPS?.trim() || "0");
  const proxies = raw.TRUSTED_PROXIES?.trim() ?? "";
  const count = proxies.split(",").filter((entry) => entry.trim()).length;
  if (isLocalPlatform(raw)) {
    return { id: ID, title: TITLE, status: "pass", detail: "a rehearsal on this machine: no per-address budget, the whole token budget" };
  }
  if (raw.VERCEL === "1") {
    return { id: ID, title: TITLE, status: "pass", detail: "Vercel: its edge's x-real-ip names the client (TRUST_PROXY_HOPS and TRUSTED_PROXIES are not read)" };
  }
  if (!Number.isInteger(hops) || hops <= 0) {
    const detail =
      "the connection's peer is the client (next start or a custom Node server); a host whose runtime is not Node's http server gets no per-address budget, only the open share of the token budget";
    if (proxies) {
      return { id: ID, title: TITLE, status: "warn", detail: `TRUSTED_PROXIES is set but TRUST_PROXY_HOPS is 0: X-Forwarded-For is never read; ${detail}`, fix: `set TRUST_PROXY_HOPS to the number of proxies in front of the app, or unset TRUSTED_PROXIES (${GUIDE})` };
    }
    return { id: ID, title: TITLE, status: "pass", detail };
  }
  if (count === 0) {
    // The server refuses to start so (lib/env.ts): no default list is safe, so neither is guessed.
    return {
      id: ID,
      title: TITLE,
      status: "fail",
      detail:
        `TRUST_PROXY_HOPS is ${hops} but TRUSTED_PROXIES ${raw.TRUSTED_PROXIES === undefined ? "is unset" : "lists no proxy"}: production refuses to start` +
        (hops > 1 ? "; an outer proxy not listed (a CDN) would count as every merchant's address" : ""),
      fix: `list your proxies' addresses or CIDRs in TRUSTED_PROXIES, or set TRUST_PROXY_HOPS=0 (${GUIDE})`,
    };
  }
  return { id: ID, title: TITLE, status: "pass", detail: `X-Forwarded-For is read only from the ${count} listed proxy range(s), up to ${hops} hop(s); any other peer is the client itself` };
}
