import { LOCALES, type Locale } from "@/lib/language";

/**
 * The locales the merchant UI speaks, listed in lib/language.ts (lib/env.ts validates DEFAULT_LOCALE against them).
 * Adding one: a messages/<code>.json with every key of en.json, and the code there; the type checker then names
 * every table keyed by locale that lacks it (below, i18n/messages.ts, i18n/plain-text.ts), and the catalogue test
 * (tests/unit/i18n-catalogue.test.ts) checks the file key by key. See docs/languages.md.
 */
export { LOCALES, type Locale };

/** The cookie the language switcher writes; next-intl's conventional name. */
export const LOCALE_COOKIE = "NEXT_LOCALE";

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

const DIRECTIONS: Record<Locale, "rtl" | "ltr"> = { ar: "rtl", fr: "ltr", en: "ltr" };

export function direction(locale: Locale): "rtl" | "ltr" {
  return DIRECTIONS[locale];
}

/**
 * The tag handed to Intl for numbers, money and dates. Algerian merchants read Western (Latin) digits, also in
 * Arabic: "ar-DZ" already defaults to them in current CLDR, and `-u-nu-latn` keeps it so on runtimes whose data
 * would pick Arabic-Indic digits for Arabic. fr-DZ writes the dinar as "DA", as Algerian French does.
 */
export const INTL_LOCALE: Record<Locale, string> = {
  ar: "ar-DZ-u-nu-latn",
  fr: "fr-DZ",
  en: "en",
};

/** Each locale's name in itself, for the switcher. */
export const LOCALE_NAMES: Record<Locale, string> = {
  ar: "العربية",
  fr: "Français",
  en: "English",
};
