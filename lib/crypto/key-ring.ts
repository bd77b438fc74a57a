import { env } from "@/lib/env";
import { keyRing, type TokenKeyRing } from "./token-cipher";

let cached: { source: string; ring: TokenKeyRing } | undefined;

/** The process's key ring from TOKEN_ENCRYPTION_KEY and TOKEN_ENCRYPTION_KEYS_PREVIOUS (validated by lib/env.ts). */
export function envKeyRing(): TokenKeyRing {
  const source = [env.TOKEN_ENCRYPTION_KEY, ...env.TOKEN_ENCRYPTION_KEYS_PREVIOUS].join(",");
  if (cached?.source !== source) cached = { source, ring: keyRing(env.TOKEN_ENCRYPTION_KEY, env.TOKEN_ENCRYPTION_KEYS_PREVIOUS) };
  return cached.ring;
}
