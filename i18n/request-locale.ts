import "server-only";
import { cookies, headers } from "next/headers";
import { cache } from "react";
import { env } from "@/lib/env";
import { LOCALE_COOKIE, type Locale } from "./locales";
import { resolveLocale } from "./negotiate";

/**
 * This request's locale: the switcher's cookie, else Accept-Language, else DEFAULT_LOCALE (URLs carry no locale).
 * Once per request; next-intl's request configuration (./request.ts) and the pages' translator (./server.ts) both
 * read it, so they cannot disagree.
 */
export const requestLocale = cache(async (): Promise<Locale> => {
  const [cookieStore, headerList] = await Promise.all([cookies(), headers()]);
  return resolveLocale({
    cookie: cookieStore.get(LOCALE_COOKIE)?.value,
    acceptLanguage: headerList.get("accept-language"),
    fallback: env.DEFAULT_LOCALE,
  });
});
