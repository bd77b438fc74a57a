import type { Route } from "../http/types";
import { consoleRoutes } from "./console";
import { dashboardRoutes } from "./dashboard";
import { esc, htmlPage, layout } from "./html";

/** The emulator's pages: an index, the merchant dashboard and the developer console. */
export const uiRoutes: Route[] = [
  {
    method: "GET",
    path: "/",
    handler: (_request, ctx) =>
      htmlPage(
        200,
        layout(
          "Platform emulator",
          `<section><ul>
<li><a href="/dashboard">Merchant dashboard</a>: sign in as a fixture merchant, place test orders, move orders through their statuses, uninstall the app.</li>
<li><a href="/console">Developer console</a>: webhook URL and verification, signing secret, delivery log, fault injection, app status, store plans.</li>
<li><a href="/login">Sign in as a fixture merchant</a> (used by the consent screen and the dashboard).</li>
<li><a href="${esc(`${ctx.config.appUrl}/install`)}">Install the app</a> (the app at ${esc(ctx.config.appUrl)} starts the OAuth flow).</li>
<li><a href="/_emulator/state">Control API: state</a> · <a href="/_emulator/webhooks/deliveries">Control API: webhook deliveries</a></li>
</ul><p class="muted">Emulated time: ${esc(ctx.clock.now().toISOString())} (×${esc(ctx.clock.timeScale)}).</p></section>`,
        ),
      ),
  },
  ...dashboardRoutes,
  ...consoleRoutes,
];
