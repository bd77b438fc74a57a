import type { DbOrTx } from "@/db/client";
import { orderCountsByPhoneKey, type PhoneOrderCounts } from "@/db/queries/customer-orders";
import type { Customer, StoreClient } from "@/lib/platform";
import { algerianNational, phoneKey, typedPhone } from "@/lib/phone";
import { storeHref } from "@/lib/sections";

/**
 * The customers page: the platform's customers of a store, newest first, a page at a time by its cursor, each with
 * their history from the app's own orders (lib/platform has the customers, only the app's database has what became
 * of their orders). `?phone=` is the platform's phone filter, `?cursor=` the platform's page marker.
 */

export const CUSTOMERS_PAGE_SIZE = 20;

export type CustomersQuery = { phone: string | null; cursor: string | null; phoneRefused: boolean };

export type CustomerRow = Customer & { history: PhoneOrderCounts };

export type CustomersPage = { rows: CustomerRow[]; nextCursor: string | null };

type SearchParams = Record<string, string | string[] | undefined>;

function first(value: string | string[] | undefined): string | null {
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

export function parseCustomersQuery(params: SearchParams): CustomersQuery {
  const { phone, refused } = typedPhone(first(params.phone));
  const cursor = first(params.cursor)?.trim() ?? "";
  return { phone, cursor: cursor || null, phoneRefused: refused };
}

export function customersHref(storeId: number, query: { phone?: string | null; cursor?: string | null }): string {
  return storeHref(storeId, "customers", { phone: query.phone, cursor: query.cursor });
}

/**
 * The platform compares the phone filter as written (its documentation names the parameter and no more), and an
 * Algerian store's customers give their number in the national form at checkout (0550 12 34 56), so an Algerian
 * number is sent in that form however it was typed (+213 550..., 00213 550...). Anything else goes as typed.
 */
export function platformPhone(phone: string): string {
  return algerianNational(phone) ?? phone.replace(/[\s().-]/g, "");
}

const NO_ORDERS: PhoneOrderCounts = { orders: 0, delivered: 0, returned: 0 };

/**
 * Each customer's orders, delivered and returned parcels from the app's orders, matched on the key of their number
 * (lib/phone.ts phoneKey: an order placed as +213 (0) 550-12-34-56 is the customer 0550123456's), in one query for
 * the page. Two customers with one number (the platform lists them apart) each show that number's history.
 */
export async function withOrderHistory(db: DbOrTx, storeId: number, customers: readonly Customer[]): Promise<CustomerRow[]> {
  const keys = customers.map((customer) => phoneKey(customer.phone));
  const counts = await orderCountsByPhoneKey(db, storeId, [...new Set(keys.filter((key) => key !== null))]);
  return customers.map((customer, index) => {
    const key = keys[index];
    return { ...customer, history: { ...((key ? counts.get(key) : undefined) ?? NO_ORDERS) } };
  });
}

/** One page of the store's customers with their history. A PlatformError (a refused cursor included) goes to the caller. */
export async function loadCustomersPage(
  client: Pick<StoreClient, "customers">,
  db: DbOrTx,
  storeId: number,
  query: Pick<CustomersQuery, "phone" | "cursor">,
  limit = CUSTOMERS_PAGE_SIZE,
): Promise<CustomersPage> {
  const page = await client.customers.list({
    cursor: query.cursor ?? undefined,
    limit,
    phone: query.phone ? platformPhone(query.phone) : undefined,
  });
  return { rows: await withOrderHistory(db, storeId, page.items), nextCursor: page.hasMore ? page.nextCursor : null };
}
