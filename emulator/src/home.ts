import { html, page } from "./http/respond";
import type { Route } from "./http/types";
import { escapeHtml } from "./util";

/** A landing page at `/` (the dashboard's routes come first and may replace it). */
export const homeRoutes: Route[] = [
  {
    method: "GET",
    path: "/",
    handler(_request, ctx) {
      const app = ctx.state.apps[0];
      return html(
        200,
        page(
          "Platform emulator",
          `<h1>Platform emulator</h1>
<p>OAuth and REST API of the store platform, for local development.</p>
<ul>
<li><a href="/login">Sign in as a fixture merchant</a></li>
<li><a href="/_emulator/state">Control API: state</a></li>
</ul>
<p>App client id: <code>${escapeHtml(app?.clientId ?? "")}</code></p>`,
        ),
      );
    },
  },
];
