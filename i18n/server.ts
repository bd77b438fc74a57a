import "server-only";
import { getLocale, getTranslations } from "next-intl/server";
import { env } from "@/lib/env";
import { formatsFor, type Formats } from "@/i18n/format";
import { direction, isLocale, type Locale } from "./locales";
import type { Rich, Translate } from "./translate";

export type Ui = { locale: Locale; dir: "rtl" | "ltr"; t: Translate; rich: Rich; format: Formats };

/**
 * What a server component needs to speak the merchant's language: the locale, a translator over the whole
 * catalogue (keys are written in full, "Orders.title", so the catalogue test can find every use) and formatters.
 */
export async function getUi(): Promise<Ui> {
  const [rawLocale, t] = await Promise.all([getLocale(), getTranslations()]);
  const locale: Locale = isLocale(rawLocale) ? rawLocale : env.DEFAULT_LOCALE;
  return {
    locale,
    dir: direction(locale),
    t: t as Translate,
    rich: t.rich as Rich,
    format: formatsFor(locale, env.STORE_TIME_ZONE),
  };
}

/**
 * The raw text of a few messages, for client components (they get no catalogue: next-intl's client runtime would
 * cost more than the whole page's own code). Only `{name}` placeholders are allowed in them; `fill` replaces
 * those in the browser, so plurals and other ICU syntax stay on the server.
 */
export async function clientMessages(keys: readonly string[]): Promise<Record<string, string>> {
  const t = await getTranslations();
  const picked: Record<string, string> = {};
  for (const key of keys) {
    const raw = t.raw(key);
    if (typeof raw !== "string" || /\{\s*\w+\s*,/.test(raw)) {
      throw new Error(`Message ${key} cannot be sent to the browser: it must be plain text with {name} placeholders only`);
    }
    picked[key] = raw;
  }
  return picked;
}
