import { createHash, timingSafeEqual } from "node:crypto";

/**
 * `Authorization: Bearer <CRON_SECRET>` for the polling route. Both sides are hashed first so the comparison is
 * constant-time whatever the lengths. With no secret configured the route is off: nothing can authorize.
 */
export function cronAuthorized(authorization: string | null, secret: string | undefined): boolean {
  if (!secret || !authorization) return false;
  const match = /^Bearer[ ]+(.+)$/i.exec(authorization.trim());
  if (!match?.[1]) return false;
  const given = createHash("sha256").update(match[1], "utf8").digest();
  const expected = createHash("sha256").update(secret, "utf8").digest();
  return timingSafeEqual(given, expected);
}
