import "server-only";
import { z } from "zod";
import { defineResource, intLike, listEnvelope, optionalText, paginate, parseAnswer, toPage, type Page } from "./resource";

export type Customer = {
  id: number;
  name: string | null;
  phone: string | null;
  email: string | null;
  extra: Record<string, unknown>;
};

export type CustomerListParams = { cursor?: string; limit?: number; phone?: string };

/** The customer item shape is not documented: the likely fields are read when present, the rest kept as extra. */
const customerSchema = z.looseObject({
  id: intLike,
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

/** `client.customers`: the store's customers, a page at a time or all of them. */
export const customers = defineResource((call) => {
  const list = async (params: CustomerListParams = {}): Promise<Page<Customer>> => {
    const response = await call("GET", "/v1/customers", {
      query: { cursor: params.cursor, limit: params.limit, phone: params.phone },
    });
    return toPage(parseAnswer(listEnvelope(customerSchema), response.data, "customer list", response.requestId), toCustomer);
  };
  return {
    list,
    iterate: (params: Omit<CustomerListParams, "cursor"> & { cursor?: string } = {}) =>
      paginate((cursor) => list({ ...params, cursor }), params.cursor),
  };
});
