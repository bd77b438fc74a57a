/** The order statuses the platform documents, in their usual order of progress, for filters and badges. */
export const ORDER_STATUSES = ["pending", "confirmed", "processing", "shipped", "delivered", "cancelled", "returned"] as const;
export type KnownOrderStatus = (typeof ORDER_STATUSES)[number];

export function isKnownOrderStatus(value: string): value is KnownOrderStatus {
  return (ORDER_STATUSES as readonly string[]).includes(value);
}

const BADGE: Record<KnownOrderStatus, string> = {
  pending: "bg-amber-100 text-amber-900 ring-amber-300",
  confirmed: "bg-sky-100 text-sky-900 ring-sky-300",
  processing: "bg-indigo-100 text-indigo-900 ring-indigo-300",
  shipped: "bg-violet-100 text-violet-900 ring-violet-300",
  delivered: "bg-emerald-100 text-emerald-900 ring-emerald-300",
  cancelled: "bg-slate-200 text-slate-800 ring-slate-300",
  returned: "bg-rose-100 text-rose-900 ring-rose-300",
};

/** Tailwind classes for a status badge; a status the platform adds later still gets a neutral badge. */
export function statusBadgeClass(status: string): string {
  return isKnownOrderStatus(status) ? BADGE[status] : "bg-slate-100 text-slate-800 ring-slate-300";
}

/** The catalogue key of a status's name; a status the platform adds later reads "Unknown status". */
export function statusKey(status: string): string {
  return isKnownOrderStatus(status) ? STATUS_KEYS[status] : "Status.unknown";
}

const STATUS_KEYS: Record<KnownOrderStatus, string> = {
  pending: "Status.pending",
  confirmed: "Status.confirmed",
  processing: "Status.processing",
  shipped: "Status.shipped",
  delivered: "Status.delivered",
  cancelled: "Status.cancelled",
  returned: "Status.returned",
};
