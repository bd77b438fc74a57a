import { escapeHtml } from "../util";
import type { EmuResponse } from "./types";

export function json(status: number, body: unknown, headers: Record<string, string> = {}): EmuResponse {
  return {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
    body: JSON.stringify(body),
  };
}

export function html(status: number, body: string, headers: Record<string, string> = {}): EmuResponse {
  return { status, headers: { "content-type": "text/html; charset=utf-8", ...headers }, body };
}

export function redirect(location: string, headers: Record<string, string | string[]> = {}): EmuResponse {
  return { status: 302, headers: { location, ...headers }, body: "" };
}

/** The emulator's pages: plain HTML that works without JavaScript. */
export function page(title: string, content: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#1f2937}
h1{font-size:1.4rem} .notice{background:#fef3c7;border:1px solid #f59e0b;padding:.75rem;border-radius:.5rem}
.error{background:#fee2e2;border:1px solid #ef4444;padding:.75rem;border-radius:.5rem}
ul{list-style:none;padding:0} li{padding:.4rem 0} .reason{color:#6b7280;font-size:.9rem}
button{padding:.5rem 1rem;margin-right:.5rem;cursor:pointer} small{color:#6b7280}
</style></head><body>
<p><small>Platform emulator</small></p>
${content}
</body></html>`;
}

export function errorPage(status: number, title: string, message: string): EmuResponse {
  return html(status, page(title, `<h1>${escapeHtml(title)}</h1><p class="error">${escapeHtml(message)}</p>`));
}
