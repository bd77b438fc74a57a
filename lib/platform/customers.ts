import "server-only";
import { z } from "zod";
import { defineResource, listEnvelope, optionalText, paginate, parseAnswer, toPage, type Page } from "./resource";

export type Customer = {
  /**
   * The platform's id for the customer, as text: its documentation shows no customer fields at all, so a number, a
   * string or nothing are all taken. Null when absent (the card is then named by its phone, never by an id).
   */
  id: string | null;
  name: string | null;
  phone: string | null;
  email: string | null;
  extra: Record<string, unknown>;
};

export type CustomerListParams = { cursor?: string; limit?: number; phone?: string };

/**
 * The customer item shape is not documented: the likely fields are read when present, the rest kept as extra. An
 * id may be a number or a string (a 64-bit id, a prefixed one), or missing.
 */
const customerId = z
  .union([z.number().finite(), z.string()])
  .nullish()
  .transform((value) => (value === null || value === undefined ? null : String(value).trim() || null));

const customerSchema = z.looseObject({
  id: customerId,
  name: optionalText,
  phone: optionalText,
  email: optionalText,
});

const KNOWN = new Set(["id", "name", "phone", "email"]);

function toCustomer(raw: z.output<typeof customerSchema>): Customer {
  return {
    id: raw.id,
    name: raw.name ?? null,
    phone: raw.phone ?? null,
    email: raw.email ?? null,
    extra: Object.fromEntries(Object.entries(raw).filter(([key]) => !KNOWN.has(key))),
  };
}

/** One page of `GET /v1/customers` as the platform answered it; a PlatformError (kind "protocol") names a bad field. */
export function parseCustomerPage(data: unknown, requestId: string | null = null): Page<Customer> {
  return toPage(parseAnswer(listEnvelope(customerSchema), data, "customer list", requestId), toCustomer);
}

/** `client.customers`: the store's customers, a page at a time or all of them. */
export const customers = defineResource((call) => {
  const list = async (params: CustomerListParams = {}): Promise<Page<Customer>> => {
    const response = await call("GET", "/v1/customers", {
      query: { cursor: params.cursor, limit: params.limit, phone: params.phone },
    });
    return parseCustomerPage(response.data, response.requestId);
  };
  return {
    list,
    iterate: (params: Omit<CustomerListParams, "cursor"> & { cursor?: string } = {}) =>
      paginate((cursor) => list({ ...params, cursor }), params.cursor),
  };
});
