/**
 * The merchant dashboard: a signed-in fixture merchant sees their stores, places test orders, moves orders through
 * their statuses and uninstalls the app. Every change goes through the shared actions, so the order checker and
 * the webhook engine see exactly what the REST API sees.
 */
import { ActionError, placeTestOrder, setOrderStatus, theApp, uninstallApp } from "../actions";
import type { EmuRequest, EmuResponse, EmulatorContext, Route } from "../http/types";
import type { Merchant, Order, OrderStatus, Store } from "../model";
import { parseForm, signedInMerchant } from "../oauth/session";
import { ORDER_STATUSES } from "../order-factory";
import { badge, esc, flash, formatTime, htmlPage, isCrossSite, layout, postForm, seeOther, select } from "./html";

const ORDERS_SHOWN = 8;

function signInPage(): EmuResponse {
  const body = `<section><p>Sign in as one of the emulator's fixture merchants to manage their stores.</p>
<p><a href="/login?next=/dashboard">Sign in as a merchant</a></p></section>`;
  return htmlPage(401, layout("Merchant dashboard", body));
}

function orderRow(order: Order): string {
  const statusForm = postForm(
    `/dashboard/orders/${order.id}/status`,
    select("status", ORDER_STATUSES, order.status, `Status of order ${order.order_number}`),
    "Set status",
    "secondary",
  );
  return `<tr><td data-label="Order"><code>${esc(order.order_number)}</code><div class="muted">#${esc(order.id)}</div></td>
<td data-label="Placed">${esc(formatTime(order.created_at))}</td><td data-label="Customer">${esc(order.customer_name)}<div class="muted">${esc(order.customer_phone)}</div></td>
<td data-label="Total">${esc(order.total)} DA</td><td data-label="Status">${badge(order.status)}</td><td data-label="Move to">${statusForm}</td></tr>`;
}

function storeSection(ctx: EmulatorContext, store: Store): string {
  const app = ctx.state.apps[0];
  const install = app && ctx.state.installs.find((candidate) => candidate.appId === app.id && candidate.storeId === store.id);
  const installLine = install?.active
    ? `${badge("App installed", "ok")} <span class="muted">install #${esc(install.id)} · scopes: ${esc(install.scopes.join(" "))}</span>
${postForm(`/dashboard/stores/${store.id}/uninstall`, "", "Uninstall the app", "danger")}`
    : `${badge("App not installed")} <a href="${esc(`${ctx.config.appUrl}/install`)}">Install it from the app</a>`;
  const orders = ctx.state.orders
    .filter((order) => order.store_id === store.id)
    .sort((a, b) => b.id - a.id)
    .slice(0, ORDERS_SHOWN);
  const orderForm = postForm(
    `/dashboard/stores/${store.id}/orders`,
    `<input type="text" name="customer_name" placeholder="Customer name (optional)" aria-label="Customer name">
<input type="text" name="customer_phone" placeholder="Phone (optional)" aria-label="Customer phone" pattern="0[5-7][0-9]{8}">`,
    "Place a test order",
  );
  const expiry = store.planExpiresAt ? ` <span class="muted">until ${esc(formatTime(store.planExpiresAt))}</span>` : "";
  return `<section id="store-${store.id}"><h2>${esc(store.name)} <span class="muted">store ${esc(store.id)} · plan ${esc(store.plan)}</span>${expiry}</h2>
<p>${installLine}</p><p>${orderForm}</p>
<table><thead><tr><th>Order</th><th>Placed</th><th>Customer</th><th>Total</th><th>Status</th><th>Move to</th></tr></thead>
<tbody>${orders.map(orderRow).join("") || `<tr><td colspan="6" class="muted">No orders yet.</td></tr>`}</tbody></table></section>`;
}

function dashboardPage(request: EmuRequest, ctx: EmulatorContext, merchant: Merchant): EmuResponse {
  const stores = ctx.state.stores.filter((store) => store.ownerMerchantId === merchant.id);
  const teamStores = ctx.state.stores.filter((store) => store.teamMerchantIds.includes(merchant.id));
  const team = teamStores.length
    ? `<p class="muted">Team member (not owner) of: ${esc(teamStores.map((store) => store.name).join(", "))}. Only owners manage apps.</p>`
    : "";
  const body = `<p>Signed in as <strong>${esc(merchant.name)}</strong> (${esc(merchant.email)}) · <a href="/logout">Sign out</a></p>${team}
<p class="muted">New orders and status changes reach the app on the next check of the order checker (once per emulated minute), or at once with "Run webhooks now" in the developer console.</p>
${stores.map((store) => storeSection(ctx, store)).join("") || "<section><p>This merchant owns no store.</p></section>"}`;
  return htmlPage(200, layout("Merchant dashboard", body, flash(request)));
}

type Guarded = (request: EmuRequest, ctx: EmulatorContext, merchant: Merchant) => EmuResponse;

/** Signed in, same-site, and owner of the store the form is about; action errors come back as a message. */
function merchantPost(storeOf: (request: EmuRequest, ctx: EmulatorContext) => Store | null, run: Guarded): Route["handler"] {
  return (request, ctx) => {
    if (isCrossSite(request)) return htmlPage(403, layout("Refused", "<p>Cross-site form posts are refused.</p>"));
    const merchant = signedInMerchant(request, ctx);
    if (!merchant) return seeOther("/login?next=/dashboard");
    const store = storeOf(request, ctx);
    if (!store || store.ownerMerchantId !== merchant.id) {
      return seeOther("/dashboard", { error: "That store is not one of yours." });
    }
    try {
      return run(request, ctx, merchant);
    } catch (error) {
      if (error instanceof ActionError) return seeOther(`/dashboard#store-${store.id}`, { error: error.message });
      throw error;
    }
  };
}

const storeFromParam = (request: EmuRequest, ctx: EmulatorContext) =>
  ctx.state.stores.find((store) => String(store.id) === request.params.storeId) ?? null;

const storeOfOrderParam = (request: EmuRequest, ctx: EmulatorContext) => {
  const order = ctx.state.orders.find((candidate) => String(candidate.id) === request.params.orderId);
  return order ? (ctx.state.stores.find((store) => store.id === order.store_id) ?? null) : null;
};

export const dashboardRoutes: Route[] = [
  {
    method: "GET",
    path: "/dashboard",
    handler: (request, ctx) => {
      const merchant = signedInMerchant(request, ctx);
      return merchant ? dashboardPage(request, ctx, merchant) : signInPage();
    },
  },
  {
    method: "POST",
    path: "/dashboard/stores/:storeId/orders",
    handler: merchantPost(storeFromParam, (request, ctx) => {
      const form = parseForm(request.body);
      const storeId = Number(request.params.storeId);
      const input: { customer_name?: string; customer_phone?: string } = {};
      const name = form.get("customer_name")?.trim();
      const phone = form.get("customer_phone")?.trim();
      if (name) input.customer_name = name.slice(0, 100);
      if (phone) {
        if (!/^0[5-7][0-9]{8}$/.test(phone)) {
          return seeOther(`/dashboard#store-${storeId}`, { error: "The phone must look like 0551234567." });
        }
        input.customer_phone = phone;
      }
      const order = placeTestOrder(ctx, storeId, input);
      return seeOther(`/dashboard#store-${storeId}`, { notice: `Order ${order.order_number} placed.` });
    }),
  },
  {
    method: "POST",
    path: "/dashboard/orders/:orderId/status",
    handler: merchantPost(storeOfOrderParam, (request, ctx) => {
      const status = parseForm(request.body).get("status") ?? "";
      const order = setOrderStatus(ctx, Number(request.params.orderId), status as OrderStatus);
      return seeOther(`/dashboard#store-${order.store_id}`, { notice: `Order ${order.order_number} is now ${order.status}.` });
    }),
  },
  {
    method: "POST",
    path: "/dashboard/stores/:storeId/uninstall",
    handler: merchantPost(storeFromParam, (request, ctx) => {
      const storeId = Number(request.params.storeId);
      uninstallApp(ctx, storeId);
      return seeOther(`/dashboard#store-${storeId}`, { notice: `${theApp(ctx).name} was uninstalled; its token no longer works.` });
    }),
  },
];
