import "server-only";
import type { Caller } from "./caller";
import { paginate, toPage } from "./paginate";
import { parseAnswer } from "./parse";
import { parsePlatformOrder } from "./parse-order";
import { listEnvelope } from "./schemas";
import { z } from "zod";
import type { OrderStatus, Page, PlatformOrder } from "./types";

export type OrderListParams = {
  /** Orders created at or after this instant. */
  since?: Date | string;
  status?: OrderStatus | string;
  customerPhone?: string;
  cursor?: string;
  limit?: number;
};

// Items are validated one by one by parsePlatformOrder, which also reshapes them.
const orderList = listEnvelope(z.unknown());

export function orderOperations(call: Caller) {
  const list = async (params: OrderListParams = {}): Promise<Page<PlatformOrder>> => {
    const response = await call("GET", "/v1/orders", {
      query: {
        since: params.since,
        status: params.status,
        customer_phone: params.customerPhone,
        cursor: params.cursor,
        limit: params.limit,
      },
    });
    const raw = parseAnswer(orderList, response.data, "order list", response.requestId);
    return toPage(raw, parsePlatformOrder);
  };
  return {
    list,
    /** Every order matching the filters, page after page. */
    iterate: (params: Omit<OrderListParams, "cursor"> & { cursor?: string } = {}) =>
      paginate((cursor) => list({ ...params, cursor }), params.cursor),
  };
}

export type OrderOperations = ReturnType<typeof orderOperations>;
