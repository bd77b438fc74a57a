import type { EmulatorContext } from "../http/types";
import type { Install, Store } from "../model";
import { runtime } from "../runtime";

export const INSTALL_LIMIT_PER_MINUTE = 120;
export const STORE_LIMIT_PER_MINUTE = 600;
export const GATEWAY_CEILING_PER_MINUTE = 600;

export type LimitRefusal = { message: string; retryAfter: number };

/** Fixed windows reset at each minute of the emulator's clock; every call counts, refused ones included. */
function count(ctx: EmulatorContext, key: string): { count: number; retryAfter: number } {
  const now = ctx.clock.nowMs();
  const minute = Math.floor(now / 60_000);
  const windows = runtime(ctx).minuteWindows;
  const current = windows.get(key);
  const entry = current && current.minute === minute ? current : { minute, count: 0 };
  entry.count += 1;
  windows.set(key, entry);
  return { count: entry.count, retryAfter: Math.max(1, Math.ceil(((minute + 1) * 60_000 - now) / 1000)) };
}

/** The install bucket first, then the gateway ceiling, then the store's own budget. */
export function checkRestLimits(ctx: EmulatorContext, install: Install, store: Store): LimitRefusal | null {
  const perInstall = count(ctx, `install:${install.id}`);
  if (perInstall.count > INSTALL_LIMIT_PER_MINUTE) {
    return { message: `Rate limit exceeded: ${INSTALL_LIMIT_PER_MINUTE} requests per minute per install`, retryAfter: perInstall.retryAfter };
  }
  const perStore = count(ctx, `store:${store.id}`);
  if (perStore.count > GATEWAY_CEILING_PER_MINUTE) {
    return {
      message: `Rate limit exceeded: gateway ceiling of ${GATEWAY_CEILING_PER_MINUTE} requests per minute for this store (key gateway:store:${store.id})`,
      retryAfter: perStore.retryAfter,
    };
  }
  const storeLimit = store.rateLimitPerMinute ?? STORE_LIMIT_PER_MINUTE;
  if (perStore.count > storeLimit) {
    return { message: `Rate limit exceeded: ${storeLimit} requests per minute for this store`, retryAfter: perStore.retryAfter };
  }
  return null;
}
