import type { RawEnv } from "./env-checks";

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

function isLoopback(url: string | undefined): boolean {
  if (!url) return false;
  try {
    const parsed = new URL(url);
    return (parsed.protocol === "http:" || parsed.protocol === "https:") && LOOPBACK_HOSTS.has(parsed.hostname);
  } catch {
    return false;
  }
}

/**
 * The platform's hosts are on this machine: the only platform there is the emulator (`npm run emulator`), so the
 * configuration is a rehearsal against it. The real console's rules (https, a public webhook URL) cannot hold on
 * localhost; the doctor shows them as warnings instead of failures, and lets the emulator's own app credentials
 * pass, while everything that matters wherever it runs (secrets, shapes, the database) is judged as usual.
 */
export function isLocalPlatform(raw: RawEnv): boolean {
  return isLoopback(raw.SVC_AUTH_URL) && isLoopback(raw.SVC_API_URL);
}
