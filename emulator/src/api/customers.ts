import type { Customer } from "../model";
import { apiOk } from "./envelope";
import { paginate } from "./pagination";
import type { ApiCall, Operation } from "./types";

/** The spec does not show the customer item; these are the fields the emulator keeps. */
function customerItem(call: ApiCall, customer: Customer) {
  const orders = call.ctx.state.orders.filter((order) => order.store_id === customer.storeId && order.customer_phone === customer.phone);
  return {
    id: customer.id,
    name: customer.name,
    phone: customer.phone,
    email: customer.email,
    wilaya_id: customer.wilayaId,
    orders_count: orders.length,
    created_at: customer.createdAt,
  };
}

function list(call: ApiCall) {
  let customers = call.ctx.state.customers.filter((customer) => customer.storeId === call.store.id);
  const phone = call.request.url.searchParams.get("phone");
  if (phone !== null && phone !== "") customers = customers.filter((customer) => customer.phone === phone);
  const page = paginate(call, customers, (customer) => ({ at: customer.createdAt, id: customer.id }), (customer) =>
    customerItem(call, customer),
  );
  return page.ok ? apiOk(200, page.value, call.requestId) : page.response;
}

export const customerOperations: Operation[] = [{ method: "GET", path: "/v1/customers", scope: "customers:read", handler: list }];
