import { redirectUriOf, webhookUrlOf } from "@/lib/webhook-url/app-urls";
import { webhookUrlProblems, type UrlRuleOptions } from "@/lib/webhook-url/rules";
import type { CheckResult } from "./types";

/** A URL as it may be printed: a user name or password in it is replaced. */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.username && !parsed.password) return url;
    parsed.username = "***";
    parsed.password = "";
    return parsed.toString();
  } catch {
    return "(not a URL)";
  }
}

/** The redirect URI must equal the registered one character for character, so APP_URL must be a bare origin. */
export function checkRedirectUri(appUrl: string | null): CheckResult {
  const base = { id: "redirect-uri", title: "Redirect URI" };
  if (!appUrl) return { ...base, status: "skip", detail: "needs a well-formed APP_URL" };
  const redirectUri = redirectUriOf(appUrl);
  const parsed = new URL(appUrl);
  const extra = parsed.pathname !== "/" ? "a path" : parsed.search ? "a query string" : parsed.hash ? "a fragment" : null;
  if (extra) {
    return {
      ...base,
      status: "fail",
      detail: `APP_URL has ${extra}, so the redirect URI would be ${displayUrl(redirectUri)}, which this app does not serve`,
      fix: `set APP_URL to the origin only: ${parsed.origin}`,
    };
  }
  if (parsed.username || parsed.password) {
    return { ...base, status: "fail", detail: "APP_URL contains a user name or password", fix: `set APP_URL to ${parsed.origin}` };
  }
  return {
    ...base,
    status: "pass",
    detail: `${redirectUri} (register exactly this string as the redirect URI in the developer console)`,
  };
}

export function checkWebhookUrl(
  appUrl: string | null,
  options: Pick<UrlRuleOptions, "serviceDomains" | "serverlessDomains"> & { localPlatform?: boolean },
): CheckResult {
  const base = { id: "webhook-url", title: "Webhook URL" };
  if (!appUrl) return { ...base, status: "skip", detail: "needs a well-formed APP_URL" };
  const url = webhookUrlOf(appUrl);
  // The doctor judges the URL the real console will see: no development exception for localhost.
  const problems = webhookUrlProblems(url, { serviceDomains: options.serviceDomains, serverlessDomains: options.serverlessDomains });
  if (problems.length === 0) {
    return {
      ...base,
      status: "pass",
      detail: `${url} meets the console's rules (https on 443, public host name, at most 255 characters, not a platform or serverless free domain); save it in the developer console and press verify`,
    };
  }
  if (options.localPlatform) {
    return {
      ...base,
      status: "warn",
      detail: `${shorten(displayUrl(url))}: the emulator accepts it; the real console would refuse it: ${problems.map((problem) => problem.message).join("; ")}`,
      fix: "before going live, serve the app on a custom https domain of your own on port 443 and run `npm run setup` again",
    };
  }
  return {
    ...base,
    status: "fail",
    detail: `${shorten(displayUrl(url))} ${problems.map((problem) => problem.message).join("; ")}`,
    fix:
      "serve the app on a custom https domain of your own on port 443 and set APP_URL to it " +
      "(the console refuses to save this URL otherwise)",
  };
}

function shorten(text: string): string {
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
