import { getRequestConfig } from "next-intl/server";
import { env } from "@/lib/env";
import { loadMessages } from "./messages";
import { requestLocale } from "./request-locale";

/**
 * next-intl's per-request configuration, for the few server actions and route handlers that call next-intl's
 * getTranslations. Pages translate through ./server.ts, over the same locale.
 */
export default getRequestConfig(async () => {
  const locale = await requestLocale();
  return { locale, messages: await loadMessages(locale), timeZone: env.STORE_TIME_ZONE };
});
