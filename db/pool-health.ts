import type postgres from "postgres";

/** Errors that say the server is unreachable or going away, as opposed to a statement that failed. */
export function isConnectionFailure(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return false;
  return (
    code.startsWith("08") || // connection exceptions
    code.startsWith("57P") || // admin shutdown, crash shutdown, cannot connect now
    ["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"].includes(code) ||
    code.startsWith("CONNECTION_") ||
    code === "CONNECT_TIMEOUT"
  );
}

/**
 * What a pool last heard from the server, and how many statements their callers gave up on that the driver still
 * holds (db/statement-deadline.ts): shared by every caller that runs statements with a deadline on that pool.
 */
export type PoolHealth = { failedAt: number; answeredAt: number; abandoned: number };

const poolHealth = new WeakMap<object, PoolHealth>();

export function healthOf(sql: postgres.Sql): PoolHealth {
  let health = poolHealth.get(sql);
  if (!health) poolHealth.set(sql, (health = { failedAt: 0, answeredAt: 0, abandoned: 0 }));
  return health;
}

/** The last thing the pool heard was a connection failure, not an answer. */
export function isFailing(health: PoolHealth): boolean {
  return health.failedAt > health.answeredAt;
}
