import "server-only";
import type { Caller } from "./caller";
import { paginate, toPage } from "./paginate";
import { parseAnswer } from "./parse";
import { customerSchema, listEnvelope } from "./schemas";
import type { Customer, Page } from "./types";

export type CustomerListParams = { cursor?: string; limit?: number; phone?: string };

const KNOWN = new Set(["id", "name", "phone", "email"]);

function toCustomer(raw: ReturnType<typeof customerSchema.parse>): Customer {
  return {
    id: raw.id,
    name: raw.name ?? null,
    phone: raw.phone ?? null,
    email: raw.email ?? null,
    extra: Object.fromEntries(Object.entries(raw).filter(([key]) => !KNOWN.has(key))),
  };
}

export function customerOperations(call: Caller) {
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
}

export type CustomerOperations = ReturnType<typeof customerOperations>;
