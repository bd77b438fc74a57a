import { page } from "../http/respond";
import type { EmulatorContext } from "../http/types";
import type { App, ConsentRequest, Merchant } from "../model";
import { isTestMode, storeIneligibility } from "../rules";
import { escapeHtml } from "../util";
import { SCOPE_DESCRIPTIONS } from "./validation";

export const MAX_STORES_PER_CONSENT = 10;

/**
 * The consent screen as a plain HTML form: eligible stores as checkboxes, the others listed with their reason,
 * Approve and Deny as two submit buttons of one form (formaction), so it works without JavaScript.
 */
export function consentPage(ctx: EmulatorContext, app: App, merchant: Merchant, request: ConsentRequest, authorizeUrl: string): string {
  const now = ctx.clock.now();
  const owned = ctx.state.stores.filter((store) => store.ownerMerchantId === merchant.id);
  const teamOnly = ctx.state.stores.filter((store) => store.ownerMerchantId !== merchant.id && store.teamMerchantIds.includes(merchant.id));
  const rows = [...owned, ...teamOnly]
    .map((store) => {
      const blocked = storeIneligibility(app, store, merchant.id, now);
      const label = `${escapeHtml(store.name)} <small>#${store.id} · ${store.plan}</small>`;
      if (blocked) {
        return `<li><label><input type="checkbox" disabled> ${label}</label> <span class="reason" data-reason="${blocked.code}">${escapeHtml(blocked.reason)}</span></li>`;
      }
      return `<li><label><input type="checkbox" name="store_id" value="${store.id}"> ${label}</label></li>`;
    })
    .join("\n");
  const scopes = request.scopes
    .map((scope) => `<li><code>${escapeHtml(scope)}</code> ${escapeHtml(SCOPE_DESCRIPTIONS[scope] ?? "")}</li>`)
    .join("\n");
  const withheld = request.scopes.filter((scope) => (app.withheldScopes ?? []).includes(scope));
  const withholding = withheld.length
    ? `<p class="notice" data-withheld-scopes="${escapeHtml(withheld.join(" "))}">Emulator setting: this consent grants the older scope list, without ${withheld.map((scope) => `<code>${escapeHtml(scope)}</code>`).join(", ")} (<code>npm run emulator -- withhold-scopes</code> with no scope, or the console, turns it off).</p>`
    : "";
  const notice = isTestMode(app)
    ? `<p class="notice" data-test-mode>This app is in test mode: it has not been approved yet and can only be installed on its developer's stores.</p>`
    : "";
  return page(
    `Install ${app.name}`,
    `<h1>Install ${escapeHtml(app.name)}</h1>
${notice}${withholding}
<p>Signed in as <strong>${escapeHtml(merchant.name)}</strong> · <a href="/login?next=${encodeURIComponent(authorizeUrl)}">not you?</a></p>
<p>The app asks to:</p><ul>${scopes}</ul>
<form method="post" action="/oauth/apps/approve">
<input type="hidden" name="request_id" value="${escapeHtml(request.id)}">
<p>Choose up to ${MAX_STORES_PER_CONSENT} stores:</p>
<ul>${rows || "<li>You own no stores.</li>"}</ul>
<button type="submit">Approve</button>
<button type="submit" formaction="/oauth/apps/deny">Deny</button>
</form>
<p><small>This request expires 10 minutes after it was opened.</small></p>`,
  );
}
