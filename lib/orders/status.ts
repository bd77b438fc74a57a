/** The order statuses the platform documents, in their usual order of progress, for filters and badges. */
export const ORDER_STATUSES = ["pending", "confirmed", "processing", "shipped", "delivered", "cancelled", "returned"] as const;
export type KnownOrderStatus = (typeof ORDER_STATUSES)[number];

export function isKnownOrderStatus(value: string): value is KnownOrderStatus {
  return (ORDER_STATUSES as readonly string[]).includes(value);
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
