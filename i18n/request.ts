import { cookies, headers } from "next/headers";
import { getRequestConfig } from "next-intl/server";
import { env } from "@/lib/env";
import { LOCALE_COOKIE } from "./locales";
import { loadMessages } from "./messages";
import { resolveLocale } from "./negotiate";

/**
 * next-intl's per-request configuration. URLs carry no locale (the template's routes are fixed), so the locale
 * comes from the switcher's cookie, else Accept-Language, else DEFAULT_LOCALE.
 */
export default getRequestConfig(async () => {
  const [cookieStore, headerList] = await Promise.all([cookies(), headers()]);
  const locale = resolveLocale({
    cookie: cookieStore.get(LOCALE_COOKIE)?.value,
    acceptLanguage: headerList.get("accept-language"),
    fallback: env.DEFAULT_LOCALE,
  });
  return { locale, messages: await loadMessages(locale), timeZone: env.STORE_TIME_ZONE };
});
