/**
 * The developer console for the emulator's app: webhook URL (checked by the console's rules), verification,
 * signing secret rotation, the delivery log with every attempt, fault injection, app review status and store
 * plans. A rotated secret is shown once, in the answer to the rotate form, and never put in a URL.
 */
import { ActionError, APP_STATUSES, setAppStatus, setStorePlan, setWithheldScopes } from "../actions";
import type { EmuRequest, EmuResponse, EmulatorContext, Route } from "../http/types";
import { PLAN_RANK, type AppStatus, type Plan, type WebhookDelivery } from "../model";
import { parseForm } from "../oauth/session";
import { rotateSigningSecret, setWebhookUrl } from "../webhooks/endpoint";
import { addFault, clearFaults, FAULT_KINDS, faultSummary, isFaultKind } from "../webhooks/faults";
import { consoleApp } from "../webhooks/policy";
import { SAMPLE_EVENTS, queueSampleEvent } from "../webhooks/samples";
import { badge, esc, flash, formatTime, hidden, htmlPage, isCrossSite, layout, postForm, seeOther, select } from "./html";

const DELIVERIES_SHOWN = 50;
const PLANS = Object.keys(PLAN_RANK) as Plan[];

function stateBadge(delivery: WebhookDelivery): string {
  const tone = delivery.state === "succeeded" ? "ok" : delivery.state === "pending" ? "warn" : "bad";
  return badge(delivery.state, tone);
}

function deliveryRow(delivery: WebhookDelivery): string {
  const attempts = delivery.attempts
    .map(
      (attempt, index) => `<li>#${index + 1} ${esc(formatTime(attempt.at))} · ${attempt.status === null ? "no answer" : `HTTP ${esc(attempt.status)}`}
· ${esc(attempt.durationMs)} ms${attempt.error ? ` · <strong>${esc(attempt.error)}</strong>` : ""}
${attempt.responseSnippet ? `<pre>${esc(attempt.responseSnippet)}</pre>` : ""}</li>`,
    )
    .join("");
  const next = delivery.state === "pending" && delivery.nextAttemptAt ? `<div class="muted">next attempt ${esc(formatTime(delivery.nextAttemptAt))}</div>` : "";
  const reason = delivery.droppedReason ? `<div class="muted">${esc(delivery.droppedReason)}</div>` : "";
  return `<tr><td data-label="Queued">${esc(formatTime(delivery.createdAt))}</td><td data-label="Event"><code>${esc(delivery.event)}</code><div class="muted"><code>${esc(delivery.eventId)}</code></div></td>
<td data-label="Store">${esc(delivery.storeId)}${delivery.installId === null ? "" : `<div class="muted">install ${esc(delivery.installId)}</div>`}</td>
<td data-label="State">${stateBadge(delivery)}${reason}${next}</td>
<td data-label="Attempts">${attempts ? `<ul class="attempts">${attempts}</ul>` : `<span class="muted">not sent</span>`}
<details><summary class="muted">body</summary><pre>${esc(delivery.body)}</pre></details></td></tr>`;
}

function consolePage(ctx: EmulatorContext, messages: { notice?: string | null; error?: string | null; secret?: string }): EmuResponse {
  const app = consoleApp(ctx);
  if (!app) return htmlPage(500, layout("Developer console", "<p>The emulator state holds no app.</p>", messages));
  const hook = app.webhook;
  const devSetting = ctx.config.allowLocalhostWebhooks
    ? `<p class="dev"><strong>Development setting:</strong> <code>http://localhost</code> URLs on any port are accepted here. The real console refuses them: it accepts only public <code>https</code> URLs on port 443.</p>`
    : "";
  const endpointState = [
    hook.verified ? badge("verified", "ok") : badge("not verified", "warn"),
    hook.disabled ? badge("disabled after repeated failures", "bad") : badge("active", "ok"),
    `<span class="muted">${esc(hook.consecutiveFailures)} consecutive failed attempt(s)</span>`,
  ].join(" ");
  const secretBlock = messages.secret
    ? `<div class="dev"><p><strong>New signing secret</strong>: copy it now into <code>SVC_WEBHOOK_SECRET</code>; it is not shown again.</p><pre>${esc(messages.secret)}</pre></div>`
    : "";
  const faults = faultSummary(ctx);
  const armed = FAULT_KINDS.filter((kind) => faults.remaining[kind] > 0).map((kind) => `${kind} ×${faults.remaining[kind]}`);

  const installedStores = ctx.state.installs.filter((install) => install.appId === app.id && install.active).map((install) => String(install.storeId));
  const storeRows = ctx.state.stores
    .map((store) => {
      const owner = ctx.state.merchants.find((merchant) => merchant.id === store.ownerMerchantId);
      const planForm = postForm(
        `/console/stores/${store.id}/plan`,
        `${select("plan", PLANS, store.plan, `Plan of ${store.name}`)}
<input type="date" name="expires" aria-label="Paid plan expires" value="${esc(store.planExpiresAt?.slice(0, 10) ?? "")}">`,
        "Change plan",
        "secondary",
      );
      return `<tr><td data-label="Id">${esc(store.id)}</td><td data-label="Store">${esc(store.name)}</td><td data-label="Owner">${esc(owner?.name ?? "")}</td>
<td data-label="Plan">${esc(store.plan)}${store.planExpiresAt ? `<div class="muted">until ${esc(formatTime(store.planExpiresAt))}</div>` : ""}</td>
<td data-label="App">${installedStores.includes(String(store.id)) ? badge("installed", "ok") : ""}</td><td data-label="Change">${planForm}</td></tr>`;
    })
    .join("");

  const withheld = app.withheldScopes ?? [];
  const scopeBoxes = app.scopes
    .map((scope) => `<label><input type="checkbox" name="scope" value="${esc(scope)}"${withheld.includes(scope) ? " checked" : ""}> <code>${esc(scope)}</code></label>`)
    .join(" ");

  const deliveries = ctx.state.deliveries.slice(-DELIVERIES_SHOWN).reverse();
  const body = `${secretBlock}
<section><h2>App</h2>
<p><strong>${esc(app.name)}</strong> · client id <code>${esc(app.clientId)}</code> · minimum plan ${esc(app.minimumPlan)} · status ${badge(app.status, app.status === "approved" ? "ok" : "warn")}</p>
${postForm("/console/app-status", hidden("status", "approved"), "Approve")}
${postForm("/console/app-status", hidden("status", "suspended"), "Suspend", "danger")}
${postForm("/console/app-status", select("status", APP_STATUSES, app.status, "App status"), "Set status", "secondary")}
<h3>Older scope list</h3>
<p>Registered scopes: ${app.scopes.map((scope) => `<code>${esc(scope)}</code>`).join(" ")}. ${withheld.length ? `Next consents grant them ${badge(`without ${withheld.join(" ")}`, "warn")}` : `<span class="muted">Next consents grant what the app asks.</span>`}</p>
${postForm("/console/withheld-scopes", `<fieldset><legend>Leave out of the next grants (as the app's older version asked)</legend>${scopeBoxes}</fieldset>`, "Save", "secondary")}
<p class="muted">Install a store with a scope left out, then clear it: the store now has the grant a store installed before a section added that scope has, and the app asks its merchant again.</p>
</section>
<section><h2>Webhook endpoint</h2>
<p>${endpointState}</p>${devSetting}
${postForm("/console/webhook-url", `<input type="url" name="url" value="${esc(hook.url)}" required maxlength="255" aria-label="Webhook URL">`, "Save URL")}
<p class="muted">Saving a new URL requires a new verify: real events go only to a verified URL.</p>
${postForm("/console/verify", "", "Verify URL")}
${postForm("/console/rotate-secret", "", "Rotate signing secret", "secondary")}
${postForm("/console/tick", "", "Run webhooks now", "secondary")}
<p class="muted">Verify sends one signed <code>webhook.verify</code>; any 2xx within 6 s verifies the URL and re-enables a disabled endpoint. A rotated secret signs every delivery attempt from the next one, with no overlap.</p>
</section>
<section><h2>Fault injection</h2>
<p>${armed.length ? `Armed: ${esc(armed.join(", "))}` : `<span class="muted">No fault armed.</span>`}</p>
${postForm("/console/faults", `${select("kind", FAULT_KINDS, null, "Fault")}<input type="number" name="times" value="1" min="1" max="1000" aria-label="For the next N deliveries">`, "Arm for the next N deliveries", "secondary")}
${postForm("/console/faults/clear", "", "Clear faults", "secondary")}
<p class="muted">duplicate: a delivery arrives twice · reorder: a later delivery overtakes an earlier one · bad-signature: signed with a key the app cannot know.</p>
<h2>Send a sample event</h2>
${postForm("/console/send", `${select("event", SAMPLE_EVENTS, null, "Event")}${select("storeId", installedStores, null, "Store")}`, "Queue sample", "secondary")}
${installedStores.length ? "" : `<p class="muted">The app is not installed on any store yet.</p>`}
</section>
<section><h2>Stores and plans</h2>
<table><thead><tr><th>Id</th><th>Store</th><th>Owner</th><th>Plan</th><th>App</th><th>Change</th></tr></thead><tbody>${storeRows}</tbody></table>
</section>
<section><h2>Delivery log</h2><p class="muted">The last ${DELIVERIES_SHOWN} deliveries, newest first, with every attempt and the first 500 characters of each answer.</p>
<table><thead><tr><th>Queued</th><th>Event</th><th>Store</th><th>State</th><th>Attempts</th></tr></thead>
<tbody>${deliveries.map(deliveryRow).join("") || `<tr><td colspan="5" class="muted">No delivery yet.</td></tr>`}</tbody></table></section>`;
  return htmlPage(200, layout("Developer console", body, messages));
}

type PostHandler = (request: EmuRequest, ctx: EmulatorContext) => EmuResponse | Promise<EmuResponse>;

function consolePost(run: PostHandler): Route["handler"] {
  return async (request, ctx) => {
    if (isCrossSite(request)) return htmlPage(403, layout("Refused", "<p>Cross-site form posts are refused.</p>"));
    try {
      return await run(request, ctx);
    } catch (error) {
      if (error instanceof ActionError) return seeOther("/console", { error: error.message });
      throw error;
    }
  };
}

export const consoleRoutes: Route[] = [
  { method: "GET", path: "/console", handler: (request, ctx) => consolePage(ctx, flash(request)) },
  {
    method: "POST",
    path: "/console/webhook-url",
    handler: consolePost((request, ctx) => {
      const check = setWebhookUrl(ctx, parseForm(request.body).get("url") ?? "");
      return check.ok
        ? seeOther("/console", { notice: "Webhook URL saved. Verify it to start receiving events." })
        : seeOther("/console", { error: `URL refused (${check.rule}): ${check.message}` });
    }),
  },
  {
    method: "POST",
    path: "/console/verify",
    handler: consolePost(async (_request, ctx) => {
      const result = await ctx.webhooks.verify();
      return result.ok
        ? seeOther("/console", { notice: `Verified: the URL answered HTTP ${result.status}.` })
        : seeOther("/console", { error: `Not verified: ${result.error ?? `HTTP ${result.status}`}.` });
    }),
  },
  {
    method: "POST",
    path: "/console/rotate-secret",
    // Answered directly (no redirect) so the new secret never travels in a URL.
    handler: consolePost((_request, ctx) => consolePage(ctx, { notice: "Signing secret rotated.", secret: rotateSigningSecret(ctx) })),
  },
  {
    method: "POST",
    path: "/console/tick",
    handler: consolePost(async (_request, ctx) => {
      await ctx.webhooks.tick();
      return seeOther("/console", { notice: "Order checker and dispatcher ran." });
    }),
  },
  {
    method: "POST",
    path: "/console/faults",
    handler: consolePost((request, ctx) => {
      const form = parseForm(request.body);
      const kind = form.get("kind");
      const times = Number(form.get("times") ?? "1");
      if (!isFaultKind(kind) || !Number.isInteger(times) || times < 1 || times > 1000) {
        return seeOther("/console", { error: "Choose a fault and a number of deliveries from 1 to 1000." });
      }
      addFault(ctx, kind, times);
      return seeOther("/console", { notice: `Fault ${kind} armed for the next ${times} delivery(ies).` });
    }),
  },
  {
    method: "POST",
    path: "/console/faults/clear",
    handler: consolePost((_request, ctx) => {
      clearFaults(ctx);
      return seeOther("/console", { notice: "Faults cleared." });
    }),
  },
  {
    method: "POST",
    path: "/console/send",
    handler: consolePost((request, ctx) => {
      const form = parseForm(request.body);
      const result = queueSampleEvent(ctx, form.get("event") ?? "", Number(form.get("storeId")));
      return result.ok
        ? seeOther("/console", { notice: `Sample ${result.delivery.event} queued; it goes out on the next run.` })
        : seeOther("/console", { error: result.message });
    }),
  },
  {
    method: "POST",
    path: "/console/app-status",
    handler: consolePost((request, ctx) => {
      const app = setAppStatus(ctx, (parseForm(request.body).get("status") ?? "") as AppStatus);
      return seeOther("/console", { notice: `App status is now ${app.status}.` });
    }),
  },
  {
    method: "POST",
    path: "/console/withheld-scopes",
    handler: consolePost((request, ctx) => {
      const scopes = setWithheldScopes(ctx, parseForm(request.body).getAll("scope"));
      return seeOther("/console", { notice: scopes.length ? `Next consents grant without ${scopes.join(" ")}.` : "Next consents grant what the app asks." });
    }),
  },
  {
    method: "POST",
    path: "/console/stores/:storeId/plan",
    handler: consolePost((request, ctx) => {
      const form = parseForm(request.body);
      const expires = form.get("expires")?.trim();
      const expiresAt = expires ? `${expires}T00:00:00.000Z` : null;
      const store = setStorePlan(ctx, Number(request.params.storeId), (form.get("plan") ?? "") as Plan, expiresAt);
      return seeOther("/console", { notice: `${store.name} is now on the ${store.plan} plan.` });
    }),
  },
];
