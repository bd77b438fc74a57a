import { decodeOrderCursor, type OrderListOptions } from "@/db/queries/order-views";
import { phoneKey, typedPhone } from "@/lib/phone";
import { storeHref } from "@/lib/sections";
import { isKnownOrderStatus } from "./status";

/**
 * The orders page's URL state: ?status=, ?phone=, ?cursor=. `phoneRefused` says a phone was given but could not be
 * a phone number (the page says so and shows the orders unfiltered).
 */
export type OrderFilters = { status: string | null; phone: string | null; cursor: string | null; phoneRefused?: boolean };

type SearchParams = Record<string, string | string[] | undefined>;

function first(value: string | string[] | undefined): string | null {
  const single = Array.isArray(value) ? value[0] : value;
  return single === undefined ? null : single;
}

/**
 * An unknown status is dropped rather than matched (it could only show an empty list); the phone is cleaned as
 * lib/phone.ts typedPhone says, and a refused one is left out.
 */
export function parseOrderFilters(params: SearchParams): OrderFilters {
  const status = first(params.status)?.trim().toLowerCase() ?? "";
  const { phone, refused: phoneRefused } = typedPhone(first(params.phone));
  const cursor = first(params.cursor)?.trim() ?? "";
  return {
    status: status && isKnownOrderStatus(status) ? status : null,
    phone,
    cursor: cursor || null,
    ...(phoneRefused ? { phoneRefused } : {}),
  };
}

/** The orders page URL for these filters (empty ones left out, so URLs stay short and shareable). */
export function ordersHref(storeId: number, filters: Partial<OrderFilters>): string {
  return storeHref(storeId, "orders", { status: filters.status, phone: filters.phone, cursor: filters.cursor });
}

/**
 * What the orders query is asked for these filters: a phone matches every order whose number has the same key
 * (lib/phone.ts phoneKey), however either was spelled. A phone without a digit has no key and is matched as typed,
 * which no key equals: it finds no order rather than every order.
 */
export function orderListOptions(filters: OrderFilters): OrderListOptions {
  return { status: filters.status, cursor: filters.cursor, phoneKey: filters.phone ? (phoneKey(filters.phone) ?? filters.phone) : null };
}

/** A page marker this app never wrote (cut, edited, forged): the orders page answers 404 to it and reads nothing. */
export function hasUnknownCursor(filters: OrderFilters): boolean {
  return Boolean(filters.cursor && !decodeOrderCursor(filters.cursor));
}
