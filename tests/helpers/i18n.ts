import { createTranslator } from "next-intl";
import type { Locale } from "@/i18n/locales";
import { CATALOGUES } from "@/i18n/plain-text";
import type { Translate } from "@/i18n/translate";

export { CATALOGUES };

/** The same translator the pages get from next-intl, over one locale's real catalogue. */
export function translator(locale: Locale = "en"): Translate {
  return createTranslator({ locale, messages: CATALOGUES[locale] }) as unknown as Translate;
}
