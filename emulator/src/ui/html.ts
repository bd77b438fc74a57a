/**
 * HTML helpers for the dashboard and console: one layout, escaped interpolation, and the POST-then-303 pattern.
 * Pages work without JavaScript. Every value that comes from state or a request goes through `esc`.
 */
import type { EmuRequest, EmuResponse } from "../http/types";
import { escapeHtml } from "../util";

export const esc = (value: string | number | boolean | null | undefined): string => escapeHtml(value === null || value === undefined ? "" : String(value));

const STYLE = `
*{box-sizing:border-box} body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1f2937;background:#f9fafb;line-height:1.45}
header{background:#111827;color:#f9fafb;padding:.6rem 1.25rem;display:flex;gap:1.25rem;align-items:center;flex-wrap:wrap}
header a{color:#e5e7eb;text-decoration:none} header a:hover{text-decoration:underline} header strong{margin-right:auto}
main{max-width:72rem;margin:1.25rem auto;padding:0 1.25rem}
h1{font-size:1.5rem;margin:.25rem 0 1rem} h2{font-size:1.15rem;margin:0 0 .75rem}
section{background:#fff;border:1px solid #e5e7eb;border-radius:.5rem;padding:1rem 1.25rem;margin-bottom:1rem}
table{border-collapse:collapse;width:100%;font-size:.92rem} th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid #f3f4f6;vertical-align:top}
th{color:#6b7280;font-weight:600} code,pre{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.85rem}
pre{white-space:pre-wrap;word-break:break-all;background:#f3f4f6;padding:.5rem;border-radius:.25rem;margin:.25rem 0}
form.inline{display:inline-flex;gap:.35rem;align-items:center;margin:0 .35rem .35rem 0;flex-wrap:wrap;max-width:100%}
input,select,button{font:inherit;padding:.3rem .5rem;border:1px solid #d1d5db;border-radius:.3rem;background:#fff}
input[type=url],input[type=text].wide{width:26rem;max-width:100%;min-width:0;flex:1 1 auto} button{cursor:pointer;background:#1f2937;color:#fff;border-color:#1f2937}
button.secondary{background:#fff;color:#1f2937} button.danger{background:#b91c1c;border-color:#b91c1c}
.badge{display:inline-block;padding:.05rem .45rem;border-radius:999px;font-size:.8rem;font-weight:600;background:#e5e7eb}
.ok{background:#d1fae5;color:#065f46} .warn{background:#fef3c7;color:#92400e} .bad{background:#fee2e2;color:#991b1b}
.notice{background:#ecfdf5;border:1px solid #10b981;padding:.6rem .8rem;border-radius:.4rem;margin-bottom:1rem}
.error{background:#fef2f2;border:1px solid #ef4444;padding:.6rem .8rem;border-radius:.4rem;margin-bottom:1rem}
.dev{background:#fffbeb;border:1px solid #f59e0b;padding:.6rem .8rem;border-radius:.4rem;margin:.5rem 0}
.muted{color:#6b7280;font-size:.88rem} ul.attempts{margin:.25rem 0;padding-left:1.1rem}
code,td{overflow-wrap:anywhere} input,select{max-width:100%}
@media (max-width:40rem){
main{padding:0 .75rem} section{padding:.75rem} header{padding:.6rem .75rem;gap:.75rem}
table,tbody,tr,td{display:block} thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}
tr{border-bottom:1px solid #e5e7eb;padding:.4rem 0} td{border:0;padding:.15rem 0}
td[data-label]::before{content:attr(data-label) ": ";color:#6b7280;font-weight:600}
}
`;

export function layout(title: string, body: string, options: { notice?: string | null; error?: string | null } = {}): string {
  const notice = options.notice ? `<p class="notice" role="status">${esc(options.notice)}</p>` : "";
  const error = options.error ? `<p class="error" role="alert">${esc(options.error)}</p>` : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · Platform emulator</title><style>${STYLE}</style></head>
<body><header><strong>Platform emulator</strong><a href="/">Home</a><a href="/dashboard">Merchant dashboard</a><a href="/console">Developer console</a></header>
<main><h1>${esc(title)}</h1>${notice}${error}${body}</main></body></html>`;
}

export function htmlPage(status: number, body: string): EmuResponse {
  return {
    status,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "x-frame-options": "DENY" },
    body,
  };
}

/** POST then 303 back, with a short message carried in the query string (never a secret). */
export function seeOther(path: string, message?: { notice?: string; error?: string }): EmuResponse {
  const [pathname, hash] = path.split("#");
  const url = new URL(pathname ?? "/", "http://emulator.invalid");
  if (message?.notice) url.searchParams.set("notice", message.notice);
  if (message?.error) url.searchParams.set("error", message.error);
  return { status: 303, headers: { location: `${url.pathname}${url.search}${hash ? `#${hash}` : ""}` }, body: "" };
}

export function flash(request: EmuRequest): { notice: string | null; error: string | null } {
  return { notice: request.url.searchParams.get("notice"), error: request.url.searchParams.get("error") };
}

/**
 * Forms are plain cross-site-capable POSTs, so a page on another origin could submit them to a running
 * emulator. Browsers send Origin on POST: refuse any that is not this host.
 */
export function isCrossSite(request: EmuRequest): boolean {
  const origin = request.headers.origin;
  if (!origin) return false;
  if (origin === "null") return true;
  try {
    return new URL(origin).host !== request.headers.host;
  } catch {
    return true;
  }
}

export function postForm(action: string, inner: string, button: string, buttonClass = ""): string {
  const cls = buttonClass ? ` class="${esc(buttonClass)}"` : "";
  return `<form class="inline" method="post" action="${esc(action)}">${inner}<button type="submit"${cls}>${esc(button)}</button></form>`;
}

export function hidden(name: string, value: string | number): string {
  return `<input type="hidden" name="${esc(name)}" value="${esc(value)}">`;
}

export function select(name: string, options: readonly string[], selected: string | null, label: string): string {
  const items = options.map((option) => `<option value="${esc(option)}"${option === selected ? " selected" : ""}>${esc(option)}</option>`);
  return `<select name="${esc(name)}" aria-label="${esc(label)}">${items.join("")}</select>`;
}

export function badge(text: string, tone: "ok" | "warn" | "bad" | "" = ""): string {
  return `<span class="badge ${tone}">${esc(text)}</span>`;
}

export function formatTime(iso: string | null): string {
  if (!iso) return "";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC");
}
