import { DrizzleQueryError } from "drizzle-orm";
import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { orDatabaseUnavailable } from "@/components/database-unavailable";
import { DatabaseDeadlineError, REQUEST_DEADLINE_MS } from "@/db/client";
import type { Locale } from "@/i18n/locales";
import { isDatabaseUnavailable, retryPath } from "@/lib/database-unavailable";
import { REQUEST_PATH_HEADER } from "@/lib/http/request-path";
import { setLogSink } from "@/lib/log";
import { DATABASE_DEADLINE_MS } from "@/lib/webhooks/receive";
import { translator } from "../helpers/i18n";

/**
 * The page-level catch (components/database-unavailable.tsx) as a page runs it: Next's request (its locale and the
 * path proxy.ts records) is stood in for; what a page's query throws is what drizzle throws when the database is
 * gone (its DrizzleQueryError around the driver's refusal or db/statement-deadline.ts's deadline). The answer is server HTML.
 */

const request = vi.hoisted(() => ({ locale: "en" as string, headers: new Map<string, string>() }));

vi.mock("next/headers", () => ({
  headers: async () => ({ get: (name: string) => request.headers.get(name) ?? null }),
}));
// The request's locale as i18n/request-locale.ts reads it from the cookie and Accept-Language.
vi.mock("@/i18n/request-locale", () => ({ requestLocale: async () => request.locale as Locale }));

/** What a page's drizzle query throws when the server refused the connection. */
function refused(): Error {
  const driver = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
  return new DrizzleQueryError("select \"id\" from \"sessions\" where \"id\" = $1", ["secret-session-id"], driver);
}

/** What it throws when db/statement-deadline.ts's deadline gave up on it. */
function pastDeadline(): Error {
  return new DrizzleQueryError("select 1", [], new DatabaseDeadlineError(1_512));
}

async function html(node: Promise<unknown>): Promise<string> {
  return renderToStaticMarkup((await node) as ReactElement);
}

/** A message as renderToStaticMarkup writes it. */
function escaped(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("'", "&#x27;").replaceAll('"', "&quot;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

let restoreLog: () => void;
const logged: string[] = [];
beforeAll(() => {
  restoreLog = setLogSink((line) => logged.push(line));
});
afterAll(() => restoreLog?.());
beforeEach(() => {
  request.locale = "en";
  request.headers.clear();
  logged.length = 0;
});

describe("a page whose database is not answering", () => {
  it.each(["ar", "fr", "en"] as const)("shows the translated message with Try again to the same page (%s)", async (locale) => {
    request.locale = locale;
    request.headers.set(REQUEST_PATH_HEADER, "/stores/101/orders?status=pending&phone=0550");
    const page = await html(orDatabaseUnavailable(() => Promise.reject(pastDeadline()), { retry: "/stores/101/orders" }));
    const t = translator(locale);
    expect(page).toContain(escaped(t("Errors.databaseTitle")));
    expect(page).toContain(escaped(t("Errors.databaseMessage")));
    expect(page).toContain(escaped(t("Errors.databaseSafe")));
    expect(page).toContain(`href="/stores/101/orders?status=pending&amp;phone=0550" class="button-primary">${escaped(t("Errors.tryAgain"))}</a>`);
    expect(page).toContain('role="alert"');
    expect(page).toContain("data-database-unavailable");
    // Nothing of the error itself: no name, no query, no parameter, no stack.
    for (const leak of ["DatabaseDeadlineError", "DrizzleQueryError", "Failed query", "select", "    at "]) expect(page).not.toContain(leak);
  });

  it("the English words say what the merchant needs: the app's storage, their store and orders safe, try again", async () => {
    const page = await html(orDatabaseUnavailable(() => Promise.reject(refused()), { retry: "/stores" }));
    expect(page).toContain("This app&#x27;s storage is not answering");
    expect(page).toContain("Your store and its orders are safe");
    expect(page).toContain("Try again in a moment.");
    // No request path known: the page's own path is the fallback.
    expect(page).toContain('href="/stores"');
    expect(page).not.toContain("secret-session-id");
    expect(page).not.toContain("ECONNREFUSED");
  });

  it("a standalone answer (a layout's, the landing page's) is a page of its own with its <main>", async () => {
    const page = await html(orDatabaseUnavailable(() => Promise.reject(refused()), { retry: "/", standalone: true }));
    expect(page).toMatch(/^<main id="main"[^>]*><section role="alert"/);
    const inShell = await html(orDatabaseUnavailable(() => Promise.reject(refused()), { retry: "/" }));
    expect(inShell).toMatch(/^<section role="alert"/);
  });

  it("is logged as a warning, without the customer filters of the path or the query's values", async () => {
    request.headers.set(REQUEST_PATH_HEADER, "/stores/101/orders?phone=0550123456");
    await html(orDatabaseUnavailable(() => Promise.reject(refused()), { retry: "/stores/101/orders" }));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain("database unavailable");
    expect(logged[0]).toContain("/stores/101/orders");
    expect(logged[0]).not.toContain("0550123456");
    expect(logged[0]).not.toContain("secret-session-id");
  });

  it("rethrows any other error, untouched: a bug, a failed statement, notFound()", async () => {
    const bug = new TypeError("cannot read properties of undefined");
    await expect(orDatabaseUnavailable(() => Promise.reject(bug), { retry: "/" })).rejects.toBe(bug);
    const duplicate = new DrizzleQueryError("insert", [], Object.assign(new Error("duplicate key"), { code: "23505" }));
    await expect(orDatabaseUnavailable(() => Promise.reject(duplicate), { retry: "/" })).rejects.toBe(duplicate);
    const notFound = Object.assign(new Error("NEXT_HTTP_ERROR_FALLBACK;404"), { digest: "NEXT_HTTP_ERROR_FALLBACK;404" });
    await expect(orDatabaseUnavailable(() => Promise.reject(notFound), { retry: "/" })).rejects.toBe(notFound);
    expect(logged).toEqual([]);
  });

  it("renders the page itself when nothing failed", async () => {
    const content = createElement("p", null, "orders");
    await expect(orDatabaseUnavailable(async () => content, { retry: "/" })).resolves.toBe(content);
  });
});

describe("isDatabaseUnavailable", () => {
  it("recognises the deadline and the driver's connection failures, bare or wrapped by drizzle", () => {
    expect(isDatabaseUnavailable(new DatabaseDeadlineError(1_500))).toBe(true);
    expect(isDatabaseUnavailable(pastDeadline())).toBe(true);
    expect(isDatabaseUnavailable(refused())).toBe(true);
    for (const code of ["ECONNRESET", "CONNECTION_CLOSED", "CONNECT_TIMEOUT", "57P01", "08006"]) {
      expect(isDatabaseUnavailable(Object.assign(new Error(code), { code })), code).toBe(true);
    }
  });

  it("does not take a failed statement, a bug or a non-error for an outage", () => {
    expect(isDatabaseUnavailable(Object.assign(new Error("duplicate key"), { code: "23505" }))).toBe(false);
    expect(isDatabaseUnavailable(new DrizzleQueryError("select", [], new Error("syntax error")))).toBe(false);
    expect(isDatabaseUnavailable(new Error("bug"))).toBe(false);
    expect(isDatabaseUnavailable("ECONNREFUSED")).toBe(false);
    expect(isDatabaseUnavailable({ code: "ECONNREFUSED" })).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });

  it("stops at a cycle of causes", () => {
    const a = new Error("a");
    const b = new Error("b", { cause: a });
    a.cause = b;
    expect(isDatabaseUnavailable(a)).toBe(false);
  });
});

describe("retryPath", () => {
  it("keeps a path of this app and refuses anything that would leave it", () => {
    expect(retryPath("/stores/101/orders?status=pending", "/x")).toBe("/stores/101/orders?status=pending");
    expect(retryPath("/", "/x")).toBe("/");
    for (const bad of [null, undefined, "", "//evil.example/", "/\\evil.example", "https://evil.example/", "stores", "/a\nb", "/" + "a".repeat(2_048)]) {
      expect(retryPath(bad, "/x"), String(bad)).toBe("/x");
    }
  });
});

it("pages wait for the database as long as the webhook receiver does", () => {
  expect(REQUEST_DEADLINE_MS).toBe(DATABASE_DEADLINE_MS);
});
