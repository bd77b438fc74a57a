import { page, redirect, html, errorPage } from "../http/respond";
import type { Route } from "../http/types";
import { escapeHtml } from "../util";
import { clearedMerchantCookie, merchantCookie, parseForm, safeNext } from "./session";

/** The emulator's merchant sign-in: pick a fixture merchant, get a plain cookie, go back to `next`. */
export const loginRoutes: Route[] = [
  {
    method: "GET",
    path: "/login",
    handler(request, ctx) {
      const next = safeNext(request.url.searchParams.get("next"));
      const chosen = request.url.searchParams.get("merchant_id");
      if (chosen) {
        const merchant = ctx.state.merchants.find((candidate) => String(candidate.id) === chosen);
        if (!merchant) return errorPage(400, "Unknown merchant", "There is no such merchant in the emulator.");
        return redirect(next, { "set-cookie": merchantCookie(merchant.id) });
      }
      const buttons = ctx.state.merchants
        .map((merchant) => {
          const stores = ctx.state.stores.filter((store) => store.ownerMerchantId === merchant.id).map((store) => store.name);
          return `<li><form method="post" action="/login">
<input type="hidden" name="merchant_id" value="${merchant.id}"><input type="hidden" name="next" value="${escapeHtml(next)}">
<button type="submit">Sign in as ${escapeHtml(merchant.name)}</button>
<span class="reason">${escapeHtml(stores.join(", ") || "no stores")}</span></form></li>`;
        })
        .join("\n");
      return html(200, page("Sign in", `<h1>Sign in as a merchant</h1><ul>${buttons}</ul>`));
    },
  },
  {
    method: "POST",
    path: "/login",
    handler(request, ctx) {
      const form = parseForm(request.body);
      const next = safeNext(form.get("next") ?? request.url.searchParams.get("next"));
      const merchant = ctx.state.merchants.find((candidate) => String(candidate.id) === form.get("merchant_id"));
      if (!merchant) return errorPage(400, "Unknown merchant", "There is no such merchant in the emulator.");
      return { status: 303, headers: { location: next, "set-cookie": merchantCookie(merchant.id) }, body: "" };
    },
  },
  {
    method: "GET",
    path: "/logout",
    handler() {
      return redirect("/login", { "set-cookie": clearedMerchantCookie() });
    },
  },
];
