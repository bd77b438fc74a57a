/**
 * `npm run webhooks` when the emulator runs: like `stripe trigger`, an order event is made to happen on the
 * platform (an order created, its status changed, through the emulator's control API) and the emulator's own
 * checker and dispatcher deliver it, so the app and the platform hold the same order afterwards.
 */

export type Overrides = Record<string, string | number | null>;

type Delivery = { eventId: string; event: string; storeId: number; state: string; body: string; attempts: { status: number | null; error: string | null }[] };

const NUMERIC_FIELDS = new Set(["wilaya_id", "subtotal", "shipping_cost", "discount", "total"]);

/** `--set field=value` pairs as order fields: numbers where the order has numbers, `null` for an empty value. */
export function parseOverrides(pairs: readonly string[]): Overrides {
  const overrides: Overrides = {};
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    if (at <= 0) throw new Error(`--set needs field=value, not "${pair}"`);
    const field = pair.slice(0, at).trim();
    const raw = pair.slice(at + 1);
    if (NUMERIC_FIELDS.has(field)) {
      const value = Number(raw);
      if (!Number.isFinite(value)) throw new Error(`--set ${field} needs a number, not "${raw}"`);
      overrides[field] = value;
    } else overrides[field] = raw === "" ? null : raw;
  }
  return overrides;
}

export class EmulatorTrigger {
  constructor(readonly origin: string) {}

  /** True when an emulator answers at the origin (its clock is the cheapest call). */
  async isRunning(): Promise<boolean> {
    try {
      const response = await fetch(`${this.origin}/_emulator/clock`, { signal: AbortSignal.timeout(1_500) });
      return response.ok;
    } catch {
      return false;
    }
  }

  private async call<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.origin}${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) {
      let message = text;
      try {
        message = (JSON.parse(text) as { error?: string }).error ?? text;
      } catch {
        // not JSON
      }
      throw new Error(`the emulator refused ${method} ${path}: ${response.status} ${message}`);
    }
    return JSON.parse(text) as T;
  }

  /** Why the emulator would send nothing for this store, or null. */
  async whyNoEvents(storeId: number): Promise<string | null> {
    const state = await this.call<{ installs: { storeId: number; active: boolean; scopes: string[] }[] }>("GET", "/_emulator/state");
    const install = state.installs.find((candidate) => candidate.storeId === storeId && candidate.active);
    if (!install) return `the app is not installed on store ${storeId}: install it first (npm run dev, then Install)`;
    if (!install.scopes.includes("orders:read")) return `the install on store ${storeId} has no orders:read: order events reach only installs that granted it`;
    return null;
  }

  async createOrder(storeId: number, overrides: Overrides): Promise<{ id: number; status: string }> {
    return this.call("POST", "/_emulator/orders", { ...overrides, storeId });
  }

  async setStatus(orderId: number, status: string): Promise<{ id: number; status: string; store_id: number }> {
    return this.call("POST", `/_emulator/orders/${orderId}/status`, { status });
  }

  /** Runs the order checker and the dispatcher now, instead of at the next platform minute. */
  async deliverNow(): Promise<void> {
    await this.call("POST", "/_emulator/tick");
  }

  /** The deliveries of one order's `event`, newest first, with the app's answers. */
  async deliveriesFor(event: string, orderId: number): Promise<Delivery[]> {
    const { deliveries } = await this.call<{ deliveries: Delivery[] }>("GET", `/_emulator/webhooks/deliveries?event=${encodeURIComponent(event)}&limit=200`);
    return deliveries.filter((delivery) => {
      try {
        return (JSON.parse(delivery.body) as { data?: { order?: { id?: number } } }).data?.order?.id === orderId;
      } catch {
        return false;
      }
    });
  }
}

export function describeDelivery(delivery: Delivery): string {
  const last = delivery.attempts.at(-1);
  const answer = last ? (last.status === null ? `no answer (${last.error ?? "?"})` : `HTTP ${last.status}`) : "not sent yet";
  return `${delivery.event} ${delivery.eventId} to store ${delivery.storeId}: ${delivery.state}, app answered ${answer}`;
}
