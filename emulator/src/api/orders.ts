import { ORDER_STATUSES } from "../order-factory";
import { apiError, apiOk } from "./envelope";
import { paginate } from "./pagination";
import type { ApiCall, Operation } from "./types";

/** GET /v1/orders: the webhook `order` shape with its `items`, newest first. */
function list(call: ApiCall) {
  const query = call.request.url.searchParams;
  let orders = call.ctx.state.orders.filter((order) => order.store_id === call.store.id);
  const since = query.get("since");
  if (since !== null && since !== "") {
    const instant = Date.parse(since);
    if (Number.isNaN(instant)) return apiError(400, "bad_request", "since must be an ISO 8601 instant", call.requestId);
    orders = orders.filter((order) => Date.parse(order.created_at) >= instant);
  }
  const status = query.get("status");
  if (status !== null && status !== "") {
    if (!ORDER_STATUSES.includes(status as (typeof ORDER_STATUSES)[number])) {
      return apiError(400, "bad_request", `status must be one of ${ORDER_STATUSES.join(", ")}`, call.requestId);
    }
    orders = orders.filter((order) => order.status === status);
  }
  const phone = query.get("customer_phone");
  if (phone !== null && phone !== "") orders = orders.filter((order) => order.customer_phone === phone);
  const page = paginate(call, orders, (order) => ({ at: order.created_at, id: order.id }), (order) => order);
  return page.ok ? apiOk(200, page.value, call.requestId) : page.response;
}

export const orderOperations: Operation[] = [{ method: "GET", path: "/v1/orders", scope: "orders:read", handler: list }];
