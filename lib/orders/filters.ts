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
 * An unknown status is dropped rather than matched (it could only show an empty list); the phone is compared
 * exactly, after removing the spaces people type in numbers ("0555 12 34 56") and the invisible direction marks a
 * number copied from right-to-left text carries. A phone still holding a control or other invisible character
 * (`%00`: PostgreSQL refuses NUL in text) is refused, never sent to the database.
 */
export function parseOrderFilters(params: SearchParams): OrderFilters {
  const status = first(params.status)?.trim().toLowerCase() ?? "";
  const typed = (first(params.phone) ?? "").replace(/\p{Cf}/gu, "").replace(/\s+/g, "");
  const phoneRefused = /\p{C}/u.test(typed);
  const phone = phoneRefused ? "" : typed.slice(0, 32);
  const cursor = first(params.cursor)?.trim() ?? "";
  return {
    status: status && isKnownOrderStatus(status) ? status : null,
    phone: phone || null,
    cursor: cursor || null,
    ...(phoneRefused ? { phoneRefused } : {}),
  };
}

/** The orders page URL for these filters (empty ones left out, so URLs stay short and shareable). */
export function ordersHref(storeId: number, filters: Partial<OrderFilters>): string {
  return storeHref(storeId, "orders", { status: filters.status, phone: filters.phone, cursor: filters.cursor });
}
